export * from "./identity";
export * from "./sessions";
export * from "./api-keys";
export * from "./templates";
