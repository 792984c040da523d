/**
 * Content similarity as git's rename detection measures it (hash_chars in diffcore-delta.c and
 * estimate_similarity in diffcore-rename.c), reproduced exactly so that our renames and their
 * percentages are the ones `git diff -M` reports:
 *
 * - each file is cut into chunks that end at a newline or after 64 bytes, so a chunk is a line,
 *   or a piece of a long line; in text files (no NUL in the first 8000 bytes) a CR before LF is
 *   skipped; a last piece with neither newline nor 64 bytes is not counted, as in git;
 * - each chunk is keyed by git's 32-bit rolling hash modulo 107927, the bytes of a file are
 *   summed per key, and `copied` is the sum over keys of the smaller of the two files' counts
 *   (the hash remembers only the last ~9 bytes of a chunk, so chunks that end alike, such as two
 *   runs of 64 equal characters, count as shared: that is git's measure, kept on purpose);
 * - the score is `copied / max(size of old, size of new)` in git's fixed-point units of 1/60000
 *   (sizes count every byte), and the percentage shown is that score floored to a whole percent.
 */
export const MAX_SCORE = 60000;

/** Git reads this many leading bytes to decide that a blob is binary (a NUL among them). */
const BINARY_PROBE = 8000;
const CHUNK = 64;
const HASH_BASE = 107927;

export interface Fingerprint {
  size: number;
  /** Chunk hash to the bytes counted under it. */
  chunks: Map<number, number>;
}

export function fingerprint(bytes: Uint8Array): Fingerprint {
  const text = !bytes.subarray(0, BINARY_PROBE).includes(0);
  const chunks = new Map<number, number>();
  let accum1 = 0;
  let accum2 = 0;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (text && c === 13 && bytes[i + 1] === 10) continue;
    const old1 = accum1;
    accum1 = ((accum1 << 7) ^ (accum2 >>> 25)) >>> 0;
    accum2 = ((accum2 << 7) ^ (old1 >>> 25)) >>> 0;
    accum1 = (accum1 + c) >>> 0;
    if (++n < CHUNK && c !== 10) continue;
    const hash = ((accum1 + Math.imul(accum2, 0x61)) >>> 0) % HASH_BASE;
    chunks.set(hash, (chunks.get(hash) ?? 0) + n);
    n = accum1 = accum2 = 0;
  }
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
