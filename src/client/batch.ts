import { MAX_BASE64_BYTES, MAX_BATCH_CHANGES, MAX_BATCH_FILES, type ContentChange, type InsertFileItem } from '../model/index.js';
import { ClientError } from './errors.js';
import { refDefinitions, refUses } from './batch-refs.js';

/**
 * Splitting content changes into batches the API accepts (docs/client.md, "Batching").
 *
 * Invariants of {@link planBatches}:
 * - Order is kept: the batches, concatenated, are the input, except that an `insert_files` with
 *   more files than a batch takes becomes several consecutive `insert_files` holding the same
 *   files in the same order.
 * - Every batch has at most `maxChanges` changes, every `insert_files` at most `maxFiles` files,
 *   and every batch's JSON body at most `maxBytes` bytes.
 * - A batch ends only where no ref is cut off from its users (the definition and every use of a
 *   ref in one batch), unless a run of changes tied together by refs cannot fit in one batch; the
 *   refs cut then are listed in `splitRefs`, and the caller rewrites their later uses with
 *   `rewriteRefs` from the ids the earlier batch created.
 */
export interface BatchLimits {
  /** Changes per batch. @default 50 (the API's maximum) */
  maxChanges: number;
  /** Files per `insert_files`. @default 20 (the API's maximum) */
  maxFiles: number;
  /** JSON body of one batch in bytes. @default 8 MiB (our server refuses bodies over 10 MiB) */
  maxBytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = Object.freeze({
  maxChanges: MAX_BATCH_CHANGES,
  maxFiles: MAX_BATCH_FILES,
  maxBytes: 8 * 1024 * 1024,
});

export interface BatchPlan {
  batches: ContentChange[][];
  /** Refs defined in one batch and used in another (empty unless a run of tied changes was too long). */
  splitRefs: string[];
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) + 1;
/** `{"changes":[...]}` around the changes. */
const ENVELOPE = bytes({ changes: [] });

/** Bytes a base64 string decodes to (padding and line breaks not counted). */
export function base64Size(base64: string): number {
  const clean = base64.replace(/[\s=]/g, '');
  return Math.floor((clean.length * 3) / 4);
}

function checkFile(file: InsertFileItem, index: number) {
  if (file.base64 !== undefined && base64Size(file.base64) > MAX_BASE64_BYTES) {
    throw new ClientError(
      'batch-too-large',
      `changes[${index}]: file "${file.name}" is ${base64Size(file.base64)} bytes; the API takes at most ${MAX_BASE64_BYTES} bytes per base64 upload (send it by \`url\`)`,
    );
  }
}

/** One `insert_files` as several, each within `maxFiles` files and the byte budget. */
function splitFiles(files: InsertFileItem[], index: number, limits: BatchLimits): ContentChange[] {
  const out: ContentChange[] = [];
  let chunk: InsertFileItem[] = [];
  let size = ENVELOPE + bytes({ operation: 'insert_files', files: [] });
  for (const file of files) {
    checkFile(file, index);
    const fileSize = bytes(file);
    if (chunk.length > 0 && (chunk.length >= limits.maxFiles || size + fileSize > limits.maxBytes)) {
      out.push({ operation: 'insert_files', files: chunk });
      chunk = [];
      size = ENVELOPE + bytes({ operation: 'insert_files', files: [] });
    }
    chunk.push(file);
    size += fileSize;
  }
  if (chunk.length > 0) out.push({ operation: 'insert_files', files: chunk });
  return out;
}

function checkLimits(limits: BatchLimits) {
  for (const key of ['maxChanges', 'maxFiles', 'maxBytes'] as const) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < 1)
      throw new ClientError('invalid-option', `batch limit \`${key}\` must be a whole number of at least 1, got ${String(value)}`);
  }
  if (limits.maxChanges > MAX_BATCH_CHANGES || limits.maxFiles > MAX_BATCH_FILES) {
    throw new ClientError(
      'invalid-option',
      `batch limits go beyond the API's: at most ${MAX_BATCH_CHANGES} changes and ${MAX_BATCH_FILES} files`,
    );
  }
}

/**
 * Splits `changes` into batches for `POST .../content` (see the invariants above). Throws
 * `batch-too-large` for a single change that no batch can hold: a base64 file over 1 MiB, or a
 * change whose JSON alone exceeds `maxBytes`.
 */
export function planBatches(changes: readonly ContentChange[], options: Partial<BatchLimits> = {}): BatchPlan {
  const limits = { ...DEFAULT_BATCH_LIMITS, ...options };
  checkLimits(limits);
  const origin: number[] = [];
  const flat = changes.flatMap((change, index) => {
    const parts = change.operation === 'insert_files' ? splitFiles(change.files, index, limits) : [change];
    for (const _ of parts) origin.push(index);
    return parts;
  });
  const sizes = flat.map((change, index) => {
    const size = bytes(change);
    if (ENVELOPE + size > limits.maxBytes) {
      throw new ClientError(
        'batch-too-large',
        `changes[${origin[index]!}] (${change.operation}) is ${size} bytes of JSON; a batch may hold at most ${limits.maxBytes}`,
      );
    }
    return size;
  });

  // crossing[c] = how many refs a cut just before change c would separate from a use.
  const defs = refDefinitions(flat);
  const spans = new Map<string, { lo: number; hi: number }>();
  for (const [ref, def] of defs) spans.set(ref, { lo: def.index, hi: def.index });
  flat.forEach((change, index) => {
    for (const ref of refUses(change, defs)) {
      const span = spans.get(ref)!;
      span.lo = Math.min(span.lo, index);
      span.hi = Math.max(span.hi, index);
    }
  });
  const crossing = new Array<number>(flat.length + 1).fill(0);
  for (const { lo, hi } of spans.values()) {
    if (hi > lo) {
      crossing[lo + 1]! += 1;
      crossing[hi + 1]! -= 1;
    }
  }
  for (let c = 1; c <= flat.length; c += 1) crossing[c]! += crossing[c - 1]!;

  const batches: ContentChange[][] = [];
  const splitRefs = new Set<string>();
  let start = 0;
  while (start < flat.length) {
    let end = start;
    let size = ENVELOPE;
    while (end < flat.length && end - start < limits.maxChanges && size + sizes[end]! <= limits.maxBytes) size += sizes[end++]!;
    let cut = end;
    if (end < flat.length) {
      while (cut > start + 1 && crossing[cut]! > 0) cut -= 1;
      if (crossing[cut]! > 0) {
        cut = end;
        for (const [ref, { lo, hi }] of spans) if (lo < cut && hi >= cut) splitRefs.add(ref);
      }
    }
    batches.push(flat.slice(start, cut));
    start = cut;
  }
  return { batches, splitRefs: [...splitRefs] };
}
