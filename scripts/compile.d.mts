/** The types of scripts/compile.mjs (plain JavaScript, so that `node` runs it without a loader). */
export interface InputTime {
  /** Relative to the project's root. */
  path: string;
  /** Modification time; null for a listed input that does not exist. */
  mtimeMs: number | null;
}
export interface Staleness {
  stale: boolean;
  why: string;
}
export declare const INPUTS: readonly string[];
export declare const OUTPUTS: readonly string[];
export declare const STAMP: string;
export declare function staleness(state: {
  stampMs: number | null;
  missingOutputs: readonly string[];
  inputs: readonly InputTime[];
}): Staleness;
export declare function readInputs(root?: string): InputTime[];
export declare function checkTree(root?: string): Staleness;
export declare function compile(options?: { allowTypeErrors?: boolean }): Promise<number>;
