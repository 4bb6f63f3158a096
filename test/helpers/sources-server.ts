/**
 * A stand-in for the real sources on loopback: recorded (or recorded-format) responses served over
 * real HTTP, every request logged, so tests see headers, cookies, retries and failures as they are.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import writeXlsxFile from "write-excel-file/node";

export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Route = (req: Seen, res: ServerResponse) => unknown;

export async function sourcesServer(routes: Record<string, Route>) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const s: Seen = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    seen.push(s);
    const route = routes[`${s.method} ${new URL(s.path, "http://x").pathname}`];
    if (!route) return void res.writeHead(404).end("not found");
    await route(s, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Connections a route left hanging (a timeout test) are cut, or close() would wait for them.
  return { url, seen, close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())) };
}

/** The CBE's historical-data page, reduced to what matters: the form, its token and options. */
export function cbePage(token: string, options: string[]): string {
  return `<!DOCTYPE html><html><body><main>
<form class="form" action="/api/statistics/GetHistoricalData" method="post" id="historicalDataForm">
<input name="__RequestVerificationToken" type="hidden" value="${token}" />
<input id="uid" name="uid" type="hidden" value="54010050-4405-48c8-9c56-fe19328e9e65" />
<input name="DataSourceId" type="hidden" value="19CFFDDBFF494350A5E9C6A4397FC7DF" />
<input name="FallbackUrl" type="hidden" value="/en/economic-research/statistics/cbe-exchange-rates/historical-data" />
<input name="LanguageName" type="hidden" value="en" />
<input type="text" id="fromDate" name="FromDateRaw" readonly /><input type="text" id="toDate" name="ToDateRaw" readonly />
<select id="multipleSelectID" name="SelectedSelectOptions" multiple="multiple">${options.map((o) => `<option value="${o}">${o}</option>`).join("")}</select>
<button name="SubmitAction" type="submit" value="1">Show</button><button type="submit" name="SubmitAction" value="2">Excel</button>
</form></main></body></html>`;
}

/** Excel's serial day of a date (1900 system). */
export const excelSerial = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000 + 25569;

/**
 * A workbook in the CBE's format: one sheet, a blank title row, the header Date, Currency, Buy,
 * Sell, then per currency its business days newest first, dates as Excel serial numbers.
 */
export async function cbeWorkbook(
  rows: Array<{ date: string; currency: string; buy: number; sell: number }>,
): Promise<Buffer> {
  const data = [
    [null, null, null, null],
    ["Date", "Currency", "Buy", "Sell"].map((value) => ({ value })),
    ...rows.map((r) => [{ value: excelSerial(r.date) }, { value: r.currency }, { value: r.buy }, { value: r.sell }]),
  ];
  return writeXlsxFile(
    data as unknown as Parameters<typeof writeXlsxFile>[0],
    { sheet: "Official Exchange Rates" } as Parameters<typeof writeXlsxFile>[1],
  ).toBuffer();
}
