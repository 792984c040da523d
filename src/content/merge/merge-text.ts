import { diff3Merge } from 'node-diff3';

/** One region both sides changed differently, in lines. */
export interface TextConflict {
  base: string;
  ours: string;
  theirs: string;
}

export type TextMerge = { kind: 'clean'; text: string } | { kind: 'conflict'; text: string; conflicts: TextConflict[] };

export interface MergeLabels {
  ours: string;
  theirs: string;
}

/** Lines with their line endings kept, so joining them gives the text back byte for byte. */
export function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

const withNewline = (lines: string[]) => {
  const text = lines.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
};

/**
 * Three-way merge of text, line by line (diff3). Changes of one side apply where the other
 * side left the base alone; the same change on both sides applies once. Where both sides
 * changed the same lines differently, the result holds git-style conflict markers
 * (`<<<<<<< ours`, `=======`, `>>>>>>> theirs`) and the conflicts are listed.
 * Invariants: merge(b, x, b) = x; merge(b, b, y) = y; merge(b, x, x) = x.
 */
export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels = { ours: 'ours', theirs: 'theirs' }): TextMerge {
  if (ours === theirs || theirs === base) return { kind: 'clean', text: ours };
  if (ours === base) return { kind: 'clean', text: theirs };
  const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true });
  const out: string[] = [];
  const conflicts: TextConflict[] = [];
  for (const region of regions) {
    if (region.ok) {
      out.push(region.ok.join(''));
      continue;
    }
    if (!region.conflict) continue;
    const { a, o, b } = region.conflict;
    conflicts.push({ base: o.join(''), ours: a.join(''), theirs: b.join('') });
    // A marker must start a line, so a last line without newline gets one inside the block.
    const before = out.join('');
    out.length = 0;
    out.push(before === '' || before.endsWith('\n') ? before : `${before}\n`);
    out.push(`<<<<<<< ${labels.ours}\n`, withNewline(a), '=======\n', withNewline(b), `>>>>>>> ${labels.theirs}\n`);
  }
  const text = out.join('');
  return conflicts.length === 0 ? { kind: 'clean', text } : { kind: 'conflict', text, conflicts };
}

/** What a tree merge needs of a line merge: the text when clean, nothing more when not. */
export type LineMerge = { kind: 'clean'; text: string } | { kind: 'conflict' };

/**
 * An upper bound on the work of `mergeText` (steps of diff3's longest-common-subsequence search),
 * read in one pass over the lines, so a caller can decide where to run a merge before running it.
 * diff3 compares each side with the base (Hunt and McIlroy); every pair of equal lines, one of
 * the base and one of a side, may scan as many candidates as the shorter of the two has lines.
 * Repeated lines are what make a merge expensive: two 4 KiB documents of random `a`/`b` lines
 * take seconds, and a 70 KiB page whose paragraphs are separated by blank lines did too.
 */
export function lineMergeCost(base: string, ours: string, theirs: string): number {
  if (ours === theirs || theirs === base || ours === base) return 0;
  const counts = new Map<string, number>();
  const baseLines = splitLines(base);
  for (const line of baseLines) counts.set(line, (counts.get(line) ?? 0) + 1);
  const side = (text: string) => {
    const lines = splitLines(text);
    let pairs = lines.length;
    for (const line of lines) pairs += counts.get(line) ?? 0;
    return pairs * (Math.min(lines.length, baseLines.length) + 1);
  };
  return baseLines.length + side(ours) + side(theirs);
}

/** True when the text holds a line that starts a git conflict block. */
export function hasConflictMarkers(text: string): boolean {
  return /^<{7}( |$)/m.test(text) && /^>{7}( |$)/m.test(text);
}
