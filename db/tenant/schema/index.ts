export * from "./meta";
export * from "./forms";
export * from "./datasources";
export * from "./tenant-variables";
