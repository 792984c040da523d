/** Longest section body a search result carries. */
export const EXCERPT_LENGTH = 240;

/**
 * The part of `body` worth showing for a match: about `length` characters starting a little
 * before the first occurrence of any term (or the start), cut at word boundaries, with `…` where
 * text was left out. Never splits a surrogate pair.
 */
export function excerpt(body: string, terms: readonly string[], length = EXCERPT_LENGTH): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= length) return text;
  const lower = text.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const first = hits.length > 0 ? Math.min(...hits) : 0;
  let start = Math.max(0, Math.min(first - Math.floor(length / 4), text.length - length));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  start = safeBoundary(text, start);
  end = safeBoundary(text, end);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

/** Moves an index off the low half of a surrogate pair. */
function safeBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}
