import { basename, comparePaths } from '../format/paths.js';
import { type Fingerprint, fingerprint, MAX_SCORE, scoreToPercent, similarityScore } from './similarity.js';

export interface Side {
  path: string;
  oid: string;
}

export interface Rename {
  from: string;
  to: string;
  oldOid: string;
  newOid: string;
  /** Whole percent, 100 for identical content. */
  similarity: number;
}

export interface RenameOptions {
  /** Minimum similarity in percent for a deleted and an added file to count as one renamed file. @default 50 */
  minSimilarity?: number;
  /**
   * Inexact detection compares every deleted file with every added one; above
   * `renameLimit` × `renameLimit` pairs it is skipped and only exact renames are found, as git
   * does with `diff.renameLimit`. @default 1000
   */
  renameLimit?: number;
}

/** Git keeps this many best candidate sources per destination (NUM_CANDIDATE_PER_DST). */
const CANDIDATES_PER_DESTINATION = 4;

/**
 * Pairs deleted with added files the way git's diffcore-rename does for `-M`:
 * 1. identical content (same blob oid), preferring a source with the same file name;
 * 2. files whose name is unique among the remaining deleted and among the remaining added
 *    files, moved to another folder, at a similarity of at least halfway between the minimum
 *    and 100% (git 2.33+);
 * 3. the rest by similarity (see similarity.ts): each destination keeps its 4 best sources at
 *    or above the minimum, then pairs are taken best first (same file name wins a tie), each
 *    file used once.
 * Inputs must be sorted by path; the result is sorted by destination path.
 */
export async function detectRenames(
  deleted: readonly Side[],
  added: readonly Side[],
  load: (oid: string) => Promise<Uint8Array>,
  options: RenameOptions = {},
): Promise<Rename[]> {
  const minimum = Math.ceil(((options.minSimilarity ?? 50) * MAX_SCORE) / 100);
  const limit = options.renameLimit ?? 1000;
  const renames: Rename[] = [];
  const usedSources = new Set<Side>();
  const doneTargets = new Set<Side>();
  const pair = (source: Side, target: Side, score: number) => {
    usedSources.add(source);
    doneTargets.add(target);
    renames.push({ from: source.path, to: target.path, oldOid: source.oid, newOid: target.oid, similarity: scoreToPercent(score) });
  };

  const byOid = new Map<string, Side[]>();
  for (const source of deleted) byOid.set(source.oid, [...(byOid.get(source.oid) ?? []), source]);
  for (const target of added) {
    const free = (byOid.get(target.oid) ?? []).filter((s) => !usedSources.has(s));
    const source = free.find((s) => basename(s.path) === basename(target.path)) ?? free[0];
    if (source) pair(source, target, MAX_SCORE);
  }

  let sources = deleted.filter((s) => !usedSources.has(s));
  let targets = added.filter((t) => !doneTargets.has(t));
  if (sources.length === 0 || targets.length === 0) return sorted(renames);

  const prints = new Map<string, Fingerprint>();
  const print = async (oid: string) => {
    let found = prints.get(oid);
    if (!found) prints.set(oid, (found = fingerprint(await load(oid))));
    return found;
  };

  const basenameMinimum = minimum + Math.floor((MAX_SCORE - minimum) / 2);
  const uniqueSources = uniqueByBasename(sources);
  for (const [name, target] of uniqueByBasename(targets)) {
    const source = uniqueSources.get(name);
    if (!source) continue;
    const score = similarityScore(await print(source.oid), await print(target.oid), minimum);
    if (score >= basenameMinimum) pair(source, target, score);
  }

  sources = sources.filter((s) => !usedSources.has(s));
  targets = targets.filter((t) => !doneTargets.has(t));
  if (sources.length === 0 || targets.length === 0 || sources.length * targets.length > limit * limit) return sorted(renames);

  const candidates: { source: Side; target: Side; score: number; sameName: boolean; order: number }[] = [];
  for (const target of targets) {
    const best: typeof candidates = [];
    for (const source of sources) {
      const score = similarityScore(await print(source.oid), await print(target.oid), minimum);
      if (score < minimum) continue;
      best.push({
        source,
        target,
        score,
        sameName: basename(source.path) === basename(target.path),
        order: candidates.length + best.length,
      });
    }
    candidates.push(...best.sort(byScore).slice(0, CANDIDATES_PER_DESTINATION));
  }
  for (const c of candidates.sort(byScore)) {
    if (!usedSources.has(c.source) && !doneTargets.has(c.target)) pair(c.source, c.target, c.score);
  }
  return sorted(renames);
}

function byScore(a: { score: number; sameName: boolean; order: number }, b: typeof a): number {
  return b.score - a.score || Number(b.sameName) - Number(a.sameName) || a.order - b.order;
}

/** File name to side, only for names that occur once among `sides`. */
function uniqueByBasename(sides: readonly Side[]): Map<string, Side> {
  const seen = new Map<string, Side | null>();
  for (const side of sides) {
    const name = basename(side.path);
    seen.set(name, seen.has(name) ? null : side);
  }
  return new Map([...seen].filter((entry): entry is [string, Side] => entry[1] !== null));
}

function sorted(renames: Rename[]): Rename[] {
  return renames.sort((a, b) => comparePaths(a.to, b.to));
}
