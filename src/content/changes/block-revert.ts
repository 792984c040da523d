import { parseMarkdown } from '../markdown/processor.js';

/** The top-level blocks of a markdown document as written (front matter is one block). */
export function splitBlocks(markdown: string): string[] {
  return parseMarkdown(markdown).children.flatMap((node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    return start === undefined || end === undefined ? [] : [markdown.slice(start, end)];
  });
}

interface Hunk {
  /** Ranges [start, end) of differing blocks in the current and the target document. */
  current: [number, number];
  target: [number, number];
}

/** Runs of blocks that differ between the two documents, by a longest-common-subsequence walk. */
function hunks(current: string[], target: string[]): Hunk[] {
  const n = current.length;
  const m = target.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i]![j] = current[i] === target[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const found: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | undefined;
  const close = () => {
    if (open) found.push({ current: [open.current[0], i], target: [open.target[0], j] });
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && current[i] === target[j]) {
      close();
      i += 1;
      j += 1;
    } else {
      open ??= { current: [i, i], target: [j, j] };
      if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) i += 1;
      else j += 1;
    }
  }
  close();
  return found;
}

/**
 * Reverts the blocks named by `keys`, the zero-based indexes of top-level blocks in the current
 * document. Each key reverts the run of changes it belongs to: an added block is removed, an
 * edited one gets its old text back (with any blocks deleted in the same place). A block the
 * change request did not alter reverts to itself. Returns the unknown key when there is one.
 */
export function revertBlocks(
  current: string,
  target: string,
  keys: readonly string[],
): { ok: true; markdown: string } | { ok: false; key: string; count: number } {
  const now = splitBlocks(current);
  const old = splitBlocks(target);
  const chosen = new Set<Hunk>();
  const all = hunks(now, old);
  for (const key of keys) {
    const index = /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : -1;
    if (index < 0 || index >= now.length) return { ok: false, key, count: now.length };
    const hunk = all.find((h) => h.current[0] <= index && index < h.current[1]);
    if (hunk) chosen.add(hunk);
  }
  const out: string[] = [];
  let i = 0;
  for (const hunk of all) {
    out.push(...now.slice(i, hunk.current[0]));
    out.push(...(chosen.has(hunk) ? old.slice(...hunk.target) : now.slice(...hunk.current)));
    i = hunk.current[1];
  }
  out.push(...now.slice(i));
  return { ok: true, markdown: out.length === 0 ? '' : `${out.join('\n\n')}\n` };
}
