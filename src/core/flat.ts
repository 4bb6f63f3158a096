/**
 * A string built piece by piece (`+=`, template literals, a serializer's output) is a rope in V8: a
 * tree of the pieces, which for a document of small pieces takes many times the text's own size
 * (1.2 MB of JSON in 300 000 pieces: about 19 MB). The first read of a character flattens a rope in
 * place into one sequential string, and the pieces become garbage. Flattening a document as soon as
 * it is made lets that garbage die young, instead of the rope surviving until the document is
 * hashed or written, by then promoted to the old generation (docs/performance.md "Memory").
 */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}
