import type { TreeChange } from '../../git/index.js';
import { parseSummary, type SummaryItem } from '../../workspace/index.js';

type FileMap = ReadonlyMap<string, Uint8Array>;

const decoder = new TextDecoder();

interface Place {
  title: string;
  /** The item's place in SUMMARY.md: its parent's target and its index among its siblings. */
  position: string;
}

function placesIn(summary: Uint8Array | undefined, folder: string): Map<string, Place> {
  const places = new Map<string, Place>();
  if (summary === undefined) return places;
  const walk = (items: readonly SummaryItem[], parent: string) =>
    items.forEach((item, i) => {
      const target = item.target.split('#')[0]!;
      let path = target;
      try {
        path = decodeURI(target);
      } catch {
        // written undecoded
      }
      if (path !== '' && !places.has(folder + path)) places.set(folder + path, { title: item.title.trim(), position: `${parent}#${i}` });
      walk(item.items, path);
    });
  parseSummary(decoder.decode(summary)).summary.parts.forEach((part, p) => walk(part.items, `part${p}`));
  return places;
}

function frontMatter(bytes: Uint8Array | undefined): string {
  const text = bytes === undefined ? '' : decoder.decode(bytes);
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  return match?.[1]?.trim() ?? '';
}

/**
 * Pairs page files git's rename detection left as a deletion and an addition (a small page
 * moved and edited, below git's 50% similarity) by what still says it is the same page: the
 * same SUMMARY.md title (2), the same front matter (2), the same place in SUMMARY.md (1); a pair
 * needs 2, each file pairs once, best first. The pairs become renames, so the page keeps its id.
 * Files both sides have (two files' names swapped) are not touched: ids stay with the paths. Pure.
 */
export function matchRenames(changes: readonly TreeChange[], base: FileMap, local: FileMap, summaryPath: string): TreeChange[] {
  const page = (path: string) => /\.md$/i.test(path) && path !== summaryPath && !path.includes('.gitbook/');
  const deleted = changes.filter((c): c is Extract<TreeChange, { status: 'deleted' }> => c.status === 'deleted' && page(c.path));
  const added = changes.filter((c): c is Extract<TreeChange, { status: 'added' }> => c.status === 'added' && page(c.path));
  if (deleted.length === 0 || added.length === 0) return [...changes];
  const folder = summaryPath.slice(0, summaryPath.lastIndexOf('/') + 1);
  const [before, after] = [placesIn(base.get(summaryPath), folder), placesIn(local.get(summaryPath), folder)];
  const scored: { d: (typeof deleted)[number]; a: (typeof added)[number]; score: number }[] = [];
  for (const d of deleted) {
    for (const a of added) {
      const [was, now] = [before.get(d.path), after.get(a.path)];
      if (was === undefined || now === undefined) continue;
      const meta = frontMatter(base.get(d.path));
      const score =
        (was.title !== '' && was.title === now.title ? 2 : 0) +
        (meta !== '' && meta === frontMatter(local.get(a.path)) ? 2 : 0) +
        (was.position === now.position ? 1 : 0);
      if (score >= 2) scored.push({ d, a, score });
    }
  }
  scored.sort((x, y) => y.score - x.score);
  const used = new Set<string>();
  const renamed = new Map<string, TreeChange>();
  for (const { d, a } of scored) {
    if (used.has(d.path) || used.has(a.path)) continue;
    used.add(d.path);
    used.add(a.path);
    renamed.set(a.path, { status: 'renamed', path: a.path, from: d.path, to: a.path, similarity: 0, oldOid: d.oldOid, newOid: a.newOid });
  }
  return changes.flatMap((c) => (used.has(c.path) ? (renamed.has(c.path) ? [renamed.get(c.path)!] : []) : [c]));
}
