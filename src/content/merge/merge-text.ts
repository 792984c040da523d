import { diff3Merge, type MergeRegion } from 'node-diff3';

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
  const regions = diff3Lines(splitLines(ours), splitLines(base), splitLines(theirs));
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
 * The lines at both ends that base, ours and theirs share, as counts: `prefix` lines at the start
 * and `suffix` lines at the end of each. Only these lines are left to diff3, which gives the
 * same regions as on the whole texts: the trim stops short of a line that also occurs in what is
 * left, since diff3 may align such a line elsewhere (an insertion of a repeated line before the
 * common end may be placed after its twin). A line that occurs nowhere in the middle can only be
 * aligned with itself, so every longest common subsequence keeps the ends as they are.
 */
export function commonEnds(
  ours: readonly string[],
  base: readonly string[],
  theirs: readonly string[],
): { prefix: number; suffix: number } {
  const shortest = Math.min(ours.length, base.length, theirs.length);
  let prefix = 0;
  while (prefix < shortest && ours[prefix] === base[prefix] && theirs[prefix] === base[prefix]) prefix++;
  let suffix = 0;
  const at = (lines: readonly string[], k: number) => lines[lines.length - 1 - k];
  while (prefix + suffix < shortest && at(ours, suffix) === at(base, suffix) && at(theirs, suffix) === at(base, suffix)) suffix++;
  if (prefix === 0 && suffix === 0) return { prefix, suffix };
  // Occurrences of each line in the three middles; a line given back to the middle joins all three.
  const middle = new Map<string, number>();
  for (const lines of [ours, base, theirs]) {
    for (let i = prefix; i < lines.length - suffix; i++) middle.set(lines[i]!, (middle.get(lines[i]!) ?? 0) + 1);
  }
  const giveBack = (line: string) => middle.set(line, (middle.get(line) ?? 0) + 3);
  for (let moved = true; moved;) {
    moved = false;
    while (prefix > 0 && middle.has(base[prefix - 1]!)) {
      giveBack(base[--prefix]!);
      moved = true;
    }
    while (suffix > 0 && middle.has(at(base, suffix - 1)!)) {
      giveBack(at(base, --suffix)!);
      moved = true;
    }
  }
  return { prefix, suffix };
}

/**
 * diff3 of lines (node-diff3's regions, false conflicts merged), run on the middle that
 * `commonEnds` leaves: an edit of a few paragraphs of a long page costs the paragraphs, not the page.
 */
export function diff3Lines(ours: string[], base: string[], theirs: string[]): MergeRegion<string>[] {
  const { prefix, suffix } = commonEnds(ours, base, theirs);
  if (prefix === 0 && suffix === 0) return diff3Merge(ours, base, theirs, { excludeFalseConflicts: true });
  const middle = (lines: string[]) => lines.slice(prefix, lines.length - suffix);
  const regions = diff3Merge(middle(ours), middle(base), middle(theirs), { excludeFalseConflicts: true });
  const head = base.slice(0, prefix);
  const tail = base.slice(base.length - suffix);
  // Joined to the neighbouring ok region, as diff3 on the whole texts gives it.
  const first = regions[0];
  if (head.length > 0) {
    if (first?.ok) first.ok = [...head, ...first.ok];
    else regions.unshift({ ok: head });
  }
  const last = regions[regions.length - 1];
  if (tail.length > 0) {
    if (last?.ok) last.ok = [...last.ok, ...tail];
    else regions.push({ ok: tail });
  }
  return regions;
}

/**
 * An upper bound on the work of `mergeText` (steps of diff3's longest-common-subsequence search),
 * read in one pass over the lines, so a caller can decide where to run a merge before running it.
 * diff3 runs on what lies between the lines the three texts share at both ends (`commonEnds`) and
 * compares each side's middle with the base's (Hunt and McIlroy); every pair of equal lines, one
 * of the base and one of a side, may scan as many candidates as the shorter of the two has lines.
 * Repeated lines are what make a merge expensive: two 4 KiB documents of random `a`/`b` lines
 * take seconds, and so did a 70 KiB page whose paragraphs are separated by blank lines, edited
 * throughout on both sides (edited at a few places, only the lines between the edits count).
 */
export function lineMergeCost(base: string, ours: string, theirs: string): number {
  if (ours === theirs || theirs === base || ours === base) return 0;
  const [o, b, t] = [splitLines(ours), splitLines(base), splitLines(theirs)];
  const { prefix, suffix } = commonEnds(o, b, t);
  const middle = (lines: string[]) => lines.slice(prefix, lines.length - suffix);
  const baseLines = middle(b);
  const counts = new Map<string, number>();
  for (const line of baseLines) counts.set(line, (counts.get(line) ?? 0) + 1);
  const side = (lines: string[]) => {
    let pairs = lines.length;
    for (const line of lines) pairs += counts.get(line) ?? 0;
    return pairs * (Math.min(lines.length, baseLines.length) + 1);
  };
  return baseLines.length + side(middle(o)) + side(middle(t));
}

/** True when the text holds a line that starts a git conflict block. */
export function hasConflictMarkers(text: string): boolean {
  return /^<{7}( |$)/m.test(text) && /^>{7}( |$)/m.test(text);
}
