/**
 * The rehearsal's world (issue 49): the simulated market on a deployment's own catalog, registry
 * and calendar, every enabled network source answered on loopback in its own format, and the
 * network's faults of each hour. See world.ts for the server, publish.ts for what each source shows
 * and when, render-*.ts and official.ts for the formats, market.ts for the prices.
 */
export { startWorld, type Expected, type World } from "./world.js";
export { NET_FAULT_KINDS, type NetFault, type NetFaultKind, type SourcesFile, type WorldOptions } from "./types.js";
