export * from "./definitions";
export * from "./decisions";
export * from "./process-instances";
export * from "./tasks";
export * from "./jobs";
export * from "./history";
export * from "./cases";
export * from "./task-comments";
