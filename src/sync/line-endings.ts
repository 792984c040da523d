/**
 * Line endings. The platform stores LF only; a writer's file may use CRLF (an editor on
 * Windows). Push sends LF (no `\r` inside the platform's paragraphs), and every file docsync
 * writes from the platform's content into the workspace takes the endings the workspace's file
 * has, so a CRLF file stays CRLF throughout, never mixed, and its synced point matches it (no
 * diff to push again). Pure.
 */

const TEXT = /\.(?:md|markdown|ya?ml)$/i;
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

function text(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The text file's lines end with CRLF (every one of them that has an ending). */
export function usesCrlf(path: string, bytes: Uint8Array | undefined): boolean {
  if (bytes === undefined || !TEXT.test(path)) return false;
  const t = text(bytes);
  return t !== undefined && t.includes('\r\n') && !/(^|[^\r])\n/.test(t);
}

/** The paths of the CRLF text files among `files`. */
export function crlfPaths(files: ReadonlyMap<string, Uint8Array>): Set<string> {
  return new Set([...files].filter(([path, bytes]) => usesCrlf(path, bytes)).map(([path]) => path));
}

/** `files` with every CRLF text file in LF. */
export function withLf(files: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> {
  const out = new Map(files);
  for (const [path, bytes] of files) if (usesCrlf(path, bytes)) out.set(path, encoder.encode(text(bytes)!.replace(/\r\n/g, '\n')));
  return out;
}

/** One file in CRLF (from LF; a file that is not text is left as it is). */
export function toCrlf(bytes: Uint8Array): Uint8Array {
  const t = text(bytes);
  return t === undefined ? bytes : encoder.encode(t.replace(/\r?\n/g, '\r\n'));
}

/** `files` with the files at `crlf` paths in CRLF. */
export function withCrlfAt<T extends Uint8Array | null>(files: ReadonlyMap<string, T>, crlf: ReadonlySet<string>): Map<string, T> {
  const out = new Map(files);
  for (const [path, bytes] of files) if (bytes !== null && crlf.has(path)) out.set(path, toCrlf(bytes) as T);
  return out;
}
