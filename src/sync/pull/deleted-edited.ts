import { parseSummary, type SummaryItem } from '../../workspace/index.js';
import { folderPaths } from '../push/changed-files.js';
import type { FileMap, FileMerge } from './merge-files.js';

/**
 * A file one side deleted and the other changed, or a binary file both changed: there are no
 * markers to resolve; the changed side's file is kept (ours for a binary file).
 * - `deleted-remotely`: deleted on the platform, edited here; the local file stays a listed page
 *   and the next push sends it again (a new page: the platform's was deleted).
 * - `deleted-locally`: deleted here, edited on the platform; the platform's version is back in
 *   the file and listed again, so the deletion does not throw the platform's edit away.
 * - `binary-both-changed`: ours kept; the platform's stays in `refs/docsync/remote/<branch>`.
 */
export interface KeptFile {
  path: string;
  what: 'deleted-remotely' | 'deleted-locally' | 'binary-both-changed';
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function flatten(items: readonly SummaryItem[], into: SummaryItem[] = []): SummaryItem[] {
  for (const item of items) {
    into.push(item);
    flatten(item.items, into);
  }
  return into;
}

const targetPath = (target: string): string => {
  const bare = target.split('#')[0]!;
  try {
    return decodeURI(bare);
  } catch {
    return bare;
  }
};

/** The 1-based line listing `page` (relative to SUMMARY.md's folder), if any. */
function listingLine(summary: string, page: string): number | undefined {
  const items = flatten(parseSummary(summary).summary.parts.flatMap((part) => part.items));
  return items.find((item) => targetPath(item.target) === page)?.line;
}

/**
 * Lists `page` again in `merged` (SUMMARY.md's text) with the line `source` lists it on, placed
 * after the nearest line above it in `source` that `merged` still has (at the end otherwise).
 */
function relist(merged: string, source: string, page: string): string | undefined {
  const line = listingLine(source, page);
  if (line === undefined) return undefined;
  const sourceLines = source.split('\n');
  const mergedLines = merged.split('\n');
  let at = mergedLines.length;
  while (at > 0 && mergedLines[at - 1] === '') at -= 1;
  for (let i = line - 2; i >= 0; i -= 1) {
    const found = mergedLines.indexOf(sourceLines[i]!);
    if (found >= 0 && sourceLines[i]!.trim() !== '') {
      at = found + 1;
      break;
    }
  }
  mergedLines.splice(at, 0, sourceLines[line - 1]!);
  return mergedLines.join('\n');
}

/**
 * Turns the conflicts of a file merge that have no markers into kept files, and keeps a page
 * whose edit won over a deletion listed in SUMMARY.md (the deleting side's SUMMARY.md no longer
 * lists it, and would otherwise leave the kept text in a file that is not a page: on disk but
 * never pushed, or pushed as a deletion). Pure.
 *
 * Invariant: no text either side changed is dropped; what is kept is named, so the writer is told.
 */
export function keepDeletedEdited(base: FileMap, ours: FileMap, theirs: FileMap, merge: FileMerge): FileMerge & { kept: KeptFile[] } {
  const kept: KeptFile[] = [];
  const conflicts: string[] = [];
  for (const path of merge.conflicts) {
    const [o, t] = [ours.get(path), theirs.get(path)];
    if (o !== undefined && t !== undefined) {
      // Both kept: text with markers, or a binary file (ours kept).
      const text = merge.files.get(path);
      if (text !== undefined && text === o && !isText(o)) kept.push({ path, what: 'binary-both-changed' });
      else conflicts.push(path);
      continue;
    }
    if (!base.has(path)) {
      conflicts.push(path);
      continue;
    }
    kept.push({ path, what: o === undefined ? 'deleted-locally' : 'deleted-remotely' });
  }
  const files = new Map(merge.files);
  const summaryPath = folderPaths(files).summary;
  const prefix = summaryPath.slice(0, summaryPath.lastIndexOf('/') + 1);
  for (const { path, what } of kept) {
    if (what === 'binary-both-changed' || !path.endsWith('.md') || !path.startsWith(prefix)) continue;
    const summary = files.get(summaryPath);
    const page = path.slice(prefix.length);
    if (summary === undefined || listingLine(decoder.decode(summary), page) !== undefined) continue;
    // The side that kept the page lists it; else the base did.
    const sources = [what === 'deleted-remotely' ? ours.get(summaryPath) : theirs.get(summaryPath), base.get(summaryPath)];
    for (const source of sources) {
      const text = source === undefined ? undefined : relist(decoder.decode(summary), decoder.decode(source), page);
      if (text === undefined) continue;
      files.set(summaryPath, encoder.encode(text));
      break;
    }
  }
  return { files, conflicts, kept };
}

const strict = new TextDecoder('utf-8', { fatal: true });
function isText(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
