/**
 * The sellers' records in the OpenAPI description (docs/methodology.md §13): the list and one
 * seller's record, static files the build writes, served with the manifest's ETag; an id without a
 * record is a 404 naming those there are. Schemas from src/schema/sellers.ts; examples cut down from
 * the build's own documents.
 */
import { SELLERS_PATH, SELLERS_PREFIX } from "../../feed/paths.js";
import {
  CONDITIONAL,
  jsonDocument,
  problemResponse,
  ref,
  type Json,
  type OpenApiExamples,
  type SellersExamples,
} from "./parts.js";

export const SELLER_PATH = `${SELLERS_PREFIX}{id}.json`;

/** The answer only a seller's path gives: an id without a record. */
export function sellersResponses(p: OpenApiExamples["problems"]): Record<string, Json> {
  return {
    UnknownSeller: problemResponse(
      "No seller has a record under that id; validSellers lists those that have one.",
      ["unknown-seller"],
      p,
    ),
  };
}

const WHAT =
  "Who is usually best (docs/methodology.md §13): per asset, over the last 30 and the last 365 archive days up to the asset's asOf, the days the seller quoted, the days it gave the day's best on each side, the median of how far from the day's best it was on each side and of its spread (percent, 2 decimals), and the last day it quoted; with its row of today's table. Computed from the archive's closes as published.";

export function sellersPaths(ex: SellersExamples | undefined): Record<string, Json> {
  const list = jsonDocument(
    "getSellers",
    "The sellers that have quoted",
    "Every registered seller with a close of some asset of today's catalog, in the registry's order: who it is, who licenses or registers it, the assets it has quoted and the path of its record.",
    ref("schemas", "Sellers"),
    ex?.list,
  );
  const record = jsonDocument(
    "getSellerRecord",
    "One seller's record",
    `${WHAT} The id as /api/v1/sellers.json lists it, in any letter case; _self is the exact request.`,
    ref("schemas", "SellerRecord"),
    ex?.record ?? undefined,
  );
  const get = record["get"] as Json;
  get["parameters"] = [ref("parameters", "SellerPath"), ...CONDITIONAL];
  get["responses"] = { ...(get["responses"] as Json), "404": ref("responses", "UnknownSeller") };
  for (const d of [list, record]) (d["get"] as Json)["tags"] = ["Sellers"];
  return { [SELLERS_PATH]: list, [SELLER_PATH]: record };
}

/** The parameter of a record's path: the ids the build published, in any letter case. */
export function sellersParameters(ex: SellersExamples | undefined): Record<string, Json> {
  const ids = ex?.list.sellers.map((s) => s.id) ?? [];
  return {
    SellerPath: {
      name: "id",
      in: "path",
      required: true,
      description: "A seller's id as /api/v1/sellers.json lists it, in any letter case.",
      schema: { type: "string", minLength: 1 },
      ...(ids[0] ? { example: ids[0] } : {}),
    },
  };
}
