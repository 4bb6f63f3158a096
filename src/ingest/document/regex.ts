/**
 * The operator's regular expressions (a field's or a time's `regex` in the sources file), run on
 * text a source sent. They run with RE2 (re2js), whose matching takes time linear in the text
 * whatever the pattern (Cox, "Regular Expression Matching Can Be Simple And Fast", 2007): a
 * backtracking engine such as JavaScript's own can take time exponential in the text for a pattern
 * like `(a+)+$`, and the text is the source's to choose. RE2 has no backreferences and no
 * lookaround; the sources schema refuses such a pattern when the file is read
 * (src/schema/document-sources.ts `regexProblem`), naming the source and the field.
 *
 * What a match gives is what it gave before RE2 (the capture semantics of JavaScript's `exec`): the
 * named group (`value` for a field, `time` for a time), else the first group, else the whole match;
 * a group that took no part in the match counts as absent. No match: null.
 */
import { RE2JS } from "re2js";
import { ShapeError } from "../../core/errors.js";

/** Compiled once per pattern and run: a sources file holds a handful, every record reuses them. */
const compiled = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      // The schema checks every pattern when the sources file is read: reaching here means a caller
      // gave one that was never checked. Its source's failure, with the pattern named.
      throw new ShapeError(`the regex /${pattern}/ is not RE2 syntax: ${(e as Error).message}`);
    }
    compiled.set(pattern, re);
  }
  return re;
}

/** The part of `text` a pattern picks: the group named `name`, else the first group, else the match; null when it does not match. */
export function pick(pattern: string, text: string, name: "value" | "time"): string | null {
  const m = compile(pattern).exec(text) as (string | undefined)[] & { groups?: Record<string, string | undefined> };
  if (m === null) return null;
  return m.groups?.[name] ?? m[1] ?? m[0] ?? null;
}
