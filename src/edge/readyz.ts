/**
 * Moved to src/feed/readiness.ts (the verdict is a function of the manifest, below both edge/ and
 * render/). Kept only for the two importers outside this change's files, src/jobs/demo/hourly.ts and
 * src/cli/serve.ts: delete this file once they import ../feed/readiness.js.
 */
export { humanAge, localHint, readiness, readyInstant } from "../feed/readiness.js";
