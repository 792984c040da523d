/**
 * Content similarity as git's rename detection measures it (diffcore-delta.c and
 * estimate_similarity in diffcore-rename.c), so that our renames are the ones
 * `git diff -M` reports:
 *
 * - each file is cut into chunks that end at a newline or after 64 bytes, so a chunk is a
 *   line, or a piece of a long line; in text files a CR before LF is not counted;
 * - `copied` is the number of bytes in chunks the two files share (a chunk that appears
 *   twice in one and once in the other counts once);
 * - the score is `copied / max(size of old, size of new)`, in git's fixed-point units of
 *   1/60000, and the percentage shown is that score floored to a whole percent.
 *
 * Git keys chunks by a 32-bit hash; we key them by their bytes, which differs from git only
 * when two different chunks collide in git's hash.
 */
export const MAX_SCORE = 60000;

/** Git reads this many leading bytes to decide that a blob is binary (a NUL among them). */
const BINARY_PROBE = 8000;
const CHUNK = 64;

export interface Fingerprint {
  size: number;
  /** Chunk (its bytes as a latin1 string) to the bytes it covers. */
  chunks: Map<string, number>;
}

export function fingerprint(bytes: Uint8Array): Fingerprint {
  const text = !bytes.subarray(0, BINARY_PROBE).includes(0);
  const chunks = new Map<string, number>();
  let current: number[] = [];
  const flush = () => {
    const key = String.fromCharCode(...current);
    chunks.set(key, (chunks.get(key) ?? 0) + current.length);
    current = [];
  };
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (text && c === 13 && bytes[i + 1] === 10) continue;
    current.push(c);
    if (current.length === CHUNK || c === 10) flush();
  }
  if (current.length > 0) flush();
  return { size: bytes.length, chunks };
}

/**
 * The similarity score of `from` renamed to `to`, 0..MAX_SCORE. Returns 0 early when the sizes
 * alone rule out reaching `minimum` (git's shortcut, which saves reading the chunks).
 */
export function similarityScore(from: Fingerprint, to: Fingerprint, minimum = 0): number {
  const max = Math.max(from.size, to.size);
  const delta = max - Math.min(from.size, to.size);
  if (to.size === 0 || max * (MAX_SCORE - minimum) < delta * MAX_SCORE) return 0;
  let copied = 0;
  const [small, large] = from.chunks.size <= to.chunks.size ? [from.chunks, to.chunks] : [to.chunks, from.chunks];
  for (const [chunk, count] of small) copied += Math.min(count, large.get(chunk) ?? 0);
  return Math.floor((copied * MAX_SCORE) / max);
}

/** A score as the whole percentage git prints (`R087`). */
export function scoreToPercent(score: number): number {
  return Math.floor((score * 100) / MAX_SCORE);
}
