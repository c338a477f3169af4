export * from "./identity";
export * from "./sessions";
export * from "./api-keys";
export * from "./templates";
export * from "./process-roles";
export * from "./notifications";
export * from "./global-document-types";
export * from "./sso";
