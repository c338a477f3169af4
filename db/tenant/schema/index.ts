export * from "./meta";
export * from "./forms";
export * from "./datasources";
export * from "./tenant-variables";
export * from "./cms";
export * from "./attachments";
export * from "./document-types";
export * from "./process-variables";
