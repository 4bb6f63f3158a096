/**
 * Reading an answer's body within the cap, and telling someone what each request got back: every
 * answer a source's requests met (a redirect, a 503, a challenge page, the document itself), or why
 * none came, is passed to the HTTP options' `onAnswer` when it is set. `ingest --save-bodies` keeps
 * them on disk (src/io/saved-bodies.ts); this layer writes nothing itself.
 */

/** One answer to one request of an attempt, as received. */
export interface Answer {
  /** The URL this request asked (after a redirect, the URL redirected to). */
  url: string;
  method: string;
  /** The attempt it belongs to, from 1 (requests are retried, src/ingest/http.ts). */
  attempt: number;
  /** null when no answer came (a network error, a timeout before the headers). */
  status: number | null;
  statusText: string;
  headers: Headers | null;
  /**
   * The body exactly as the source reads it: after HTTP's content-encoding (gzip, br) is undone,
   * before any charset. null when it was not read (a redirect's) or not whole (cut off, timed out).
   */
  bytes: Uint8Array | null;
  /** Why there is no answer or no whole body; absent when the body was read whole. */
  error?: string;
  /** Request headers that carried credentials (lower case): an answer echoing them is not saved as is. */
  secretHeaders?: readonly string[];
  /** The credentials' values (a token, each cookie's value): never written where the answer is saved. */
  secrets?: readonly string[];
}

export type AnswerRecorder = (answer: Answer) => void;

/** The request an answer is to. */
export type Asked = Pick<Answer, "url" | "method" | "attempt">;

/** The Answer of `res` (none: no answer came) to the request `asked`. */
export const answerOf = (
  asked: Asked,
  res: Response | undefined,
  bytes: Uint8Array | null,
  error?: string,
): Answer => ({
  ...asked,
  status: res?.status ?? null,
  statusText: res?.statusText ?? "",
  headers: res?.headers ?? null,
  bytes,
  ...(error !== undefined ? { error } : {}),
});

/** Reads a body to its end, cancelling it as soon as it passes `max` bytes. */
export async function readCapped(res: Response, max: number): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      return "too-large";
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The body of an answer that is not the document (a 4xx, a 5xx), read for the recorder when there
 * is one, else cancelled unread. A body that cannot be read whole is recorded with why, never
 * thrown: the request's own failure is the HTTP status.
 */
export async function recordRefusal(
  res: Response,
  maxBytes: number,
  record: AnswerRecorder | undefined,
  asked: Asked,
): Promise<void> {
  if (!record) return void res.body?.cancel().catch(() => {});
  try {
    const bytes = await readCapped(res, maxBytes);
    if (bytes === "too-large") record(answerOf(asked, res, null, `larger than the limit of ${maxBytes} bytes`));
    else record(answerOf(asked, res, bytes));
  } catch (e) {
    record(answerOf(asked, res, null, `the body could not be read: ${(e as Error)?.message ?? String(e)}`));
  }
}
