export * from "./inputs.js";
export * from "./outputs.js";
