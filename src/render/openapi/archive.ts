/**
 * The archive's paths in the OpenAPI description (docs/methodology.md §5.5): by asset as JSON and
 * CSV, narrowed by `?from=`/`?to=` at the edge, and by day. Schemas come from src/schema/archive.ts,
 * examples from the build's own files and the handler's own problems.
 */
import { DAYS_PATH, HISTORY_PREFIX, DAYS_PREFIX } from "../../feed/paths.js";
import { anyCasePattern } from "./forms.js";
import {
  CONDITIONAL,
  DOCUMENT_ERRORS,
  headerRefs,
  jsonDocument,
  problemResponse,
  ref,
  type ArchiveExamples,
  type Json,
  type OpenApiExamples,
} from "./parts.js";

export const HISTORY_JSON_PATH = `${HISTORY_PREFIX}{asset}.json`;
export const HISTORY_CSV_PATH = `${HISTORY_PREFIX}{asset}.csv`;
export const DAY_PATH = `${DAYS_PREFIX}{date}.json`;

/** The answers only the archive gives: a bad range, an unknown asset in the path, a date without data. */
export function archiveResponses(p: OpenApiExamples["problems"]): Record<string, Json> {
  return {
    InvalidRange: problemResponse(
      "?from= or ?to= is not a date that exists (YYYY-MM-DD), or from is after to; the parameter member names it. Also the query or request problems every path has.",
      ["invalid-date", "too-many-parameters", "invalid-encoding", "malformed-request"],
      p,
    ),
    UnknownAssetPath: problemResponse(
      "The path names no published asset; validAssets lists the slugs (ids work too, in any letter case).",
      ["unknown-asset-path"],
      p,
    ),
    NoSuchDay: problemResponse(
      "The archive has no entry on that date; earlier and later name the nearest dates it has.",
      ["no-such-day"],
      p,
    ),
  };
}

const RANGE_ERRORS = {
  ...DOCUMENT_ERRORS,
  "400": ref("responses", "InvalidRange"),
  "404": ref("responses", "UnknownAssetPath"),
};

function historyOperation(format: "json" | "csv", ex: ArchiveExamples): Json {
  const json = format === "json";
  const content = json
    ? { "application/json": { schema: ref("schemas", "History"), ...(ex.history ? { example: ex.history } : {}) } }
    : {
        "text/csv": {
          schema: {
            type: "string",
            description:
              "RFC 4180: one header line naming the columns (paths into an entry of the JSON: date, buyLo, buyHi, sellLo, sellHi, bench, bestSell.id, bestSell.seller, bestSell.sellerAr, bestBuy.id, bestBuy.seller, bestBuy.sellerAr, official.buy, official.sell, global, sellerCount), then one line per day, CRLF line ends; dates ISO, empty cells for null.",
          },
          ...(ex.csv ? { example: ex.csv } : {}),
        },
      };
  return {
    get: {
      operationId: json ? "getAssetHistory" : "getAssetHistoryCsv",
      summary: json ? "One asset's every day since the data begins" : "One asset's every day, as CSV",
      description: `Every day with a series entry since the data begins, ascending: the series entry plus who gave each side's best, the day's official and global references and the number of sellers that closed. The last 30 entries equal the feed's series of the same build; today's is provisional. ?from= and ?to= (inclusive Cairo dates, either may be left out) narrow it${json ? "" : " (the header line stays)"}; a narrowed answer has its own strong ETag.`,
      tags: ["Archive"],
      parameters: [ref("parameters", "AssetPath"), ref("parameters", "From"), ref("parameters", "To"), ...CONDITIONAL],
      responses: {
        "200": {
          description: json ? "The asset's archive; _self is the exact request." : "The asset's archive as CSV.",
          headers: headerRefs("ETag", "Last-Modified", "Cache-Control"),
          content,
        },
        ...RANGE_ERRORS,
      },
    },
  };
}

export function archivePaths(ex: ArchiveExamples): Record<string, Json> {
  const dayDoc = jsonDocument(
    "getDay",
    "The whole market as it closed on one date",
    "Every asset with an entry that date (catalog order): its archive entry and every seller's close, best first on its default side. A closed day's file is written once and stays until its inputs change; today's is provisional.",
    ref("schemas", "Day"),
    ex.day ?? undefined,
  );
  const get = dayDoc["get"] as Json;
  get["tags"] = ["Archive"];
  get["parameters"] = [ref("parameters", "DatePath"), ...CONDITIONAL];
  get["responses"] = { ...(get["responses"] as Json), "404": ref("responses", "NoSuchDay") };
  const daysDoc = jsonDocument(
    "getDays",
    "The dates the archive has",
    "Every date with an entry for some asset, ascending, with its day of the week in Cairo, how many assets it has and the path of its document.",
    ref("schemas", "Days"),
    ex.days,
  );
  (daysDoc["get"] as Json)["tags"] = ["Archive"];
  return {
    [HISTORY_JSON_PATH]: historyOperation("json", ex),
    [HISTORY_CSV_PATH]: historyOperation("csv", ex),
    [DAY_PATH]: dayDoc,
    [DAYS_PATH]: daysDoc,
  };
}

/** The parameters of the archive's paths and ranges. */
export function archiveParameters(assets: ReadonlyArray<{ slug: string; id: string }>, ex: ArchiveExamples): Json {
  const dateSchema = { type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
  const last = ex.days.days.at(-1)?.date;
  return {
    AssetPath: {
      name: "asset",
      in: "path",
      required: true,
      description: "An asset's slug or id, in any letter case, as ?asset= takes it.",
      schema: { type: "string", pattern: anyCasePattern(assets.flatMap((a) => [a.slug, a.id])) },
      example: assets[0]?.slug,
    },
    From: {
      name: "from",
      in: "query",
      description:
        "The first Cairo date to include (YYYY-MM-DD). A date that does not exist, or one after to, gives 400.",
      schema: dateSchema,
      ...(ex.history?.from ? { example: ex.history.from } : {}),
    },
    To: {
      name: "to",
      in: "query",
      description: "The last Cairo date to include (YYYY-MM-DD). A date that does not exist gives 400.",
      schema: dateSchema,
      ...(last ? { example: last } : {}),
    },
    DatePath: {
      name: "date",
      in: "path",
      required: true,
      description: "A Cairo date, YYYY-MM-DD, as /api/v1/days.json lists them.",
      schema: dateSchema,
      ...(last ? { example: last } : {}),
    },
  };
}
