export * from "./definitions";
export * from "./decisions";
