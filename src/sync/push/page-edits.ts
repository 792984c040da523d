import type { TreeChange } from '../../git/index.js';
import { parseSummary, readFolder, topItems, type SummaryItem, type WorkspaceContent, type WorkspaceIndex } from '../../workspace/index.js';
import type { PushSides } from './read.js';
import { hasConflictMarkers } from '../bytes.js';

const decoder = new TextDecoder();

/**
 * Each key's own SUMMARY.md line, found without parsing the whole file: a 5,000-page space's
 * SUMMARY.md has 5,000 lines, and a one-page push must not read them all. The line of the last
 * item whose target is the key, as the whole parse would give it (`itemsByTarget`, the last
 * one wins). Undefined when a scan may not see what the parse sees, and the caller parses: a
 * fenced block (lines inside it are not items), a `%` (a target may be percent-encoded), a key
 * with other characters than letters, digits, `.`, `_`, `~`, `/` and `-`, or a key on no line.
 */
export function scanItemLines(text: string, keys: readonly string[]): Map<string, string> | undefined {
  if (/```|~~~|%/.test(text)) return undefined;
  const lines = new Map<string, string>();
  for (const key of keys) {
    if (!/^[\w.~/-]+$/.test(key)) return undefined;
    let last: { start: number; line: string } | undefined;
    for (const needle of [`(${key}`, `(<${key}>`]) {
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
        const start = text.lastIndexOf('\n', at) + 1;
        const end = text.indexOf('\n', at);
        const line = text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
        const items = topItems(parseSummary(line).summary);
        if (items.length === 1 && items[0]!.target === key && (last === undefined || start > last.start)) last = { start, line };
      }
    }
    if (last === undefined) return undefined;
    lines.set(key, last.line);
  }
  return lines;
}

/** Each key's own SUMMARY.md line by the whole parse; undefined when a key has none. */
export function parsedItemLines(text: string, keys: readonly string[]): Map<string, string> | undefined {
  const summaryLines = text.split('\n');
  const items = itemsByTarget(topItems(parseSummary(text).summary));
  const lines = new Map<string, string>();
  for (const key of keys) {
    const item = items.get(key);
    if (item === undefined) return undefined;
    lines.set(key, summaryLines[item.line - 1]!);
  }
  return lines;
}

function itemsByTarget(items: readonly SummaryItem[], into = new Map<string, SummaryItem>()): Map<string, SummaryItem> {
  for (const item of items) {
    into.set(item.target, item);
    try {
      into.set(decodeURIComponent(item.target), item);
    } catch {
      // Not percent-encoded after all: the target as written is the path.
    }
    itemsByTarget(item.items, into);
  }
  return into;
}

/**
 * Both sides of a push that changed only existing pages' own files (no file added, removed or
 * renamed; SUMMARY.md and `.gitbook.yaml` as they were), read page by page: each changed page is
 * read alone, with its own SUMMARY.md line, so the cost follows the pages changed and not the
 * size of the space. Undefined when the change is of another kind, or a page file has a problem:
 * the whole-folder read then handles it (and reports the problem).
 */
export function pageEditSides(
  changes: readonly TreeChange[],
  base: ReadonlyMap<string, Uint8Array>,
  local: ReadonlyMap<string, Uint8Array>,
  index: WorkspaceIndex,
  folder: { prefix: string; summary: string },
): PushSides | undefined {
  if (changes.length === 0) return undefined;
  const { prefix } = folder;
  for (const change of changes) {
    const key = change.path.slice(prefix.length);
    if (change.status !== 'modified' || !change.path.startsWith(prefix) || !/\.md$/i.test(change.path) || change.path === folder.summary)
      return undefined;
    if (key.startsWith('.gitbook/') || !index.pages.has(key)) return undefined;
  }
  const summaryText = local.get(folder.summary);
  if (summaryText === undefined || folder.summary !== `${prefix}SUMMARY.md`) return undefined;
  const text = decoder.decode(summaryText);
  const keys = changes.map((change) => change.path.slice(prefix.length));
  const itemLines = scanItemLines(text, keys) ?? parsedItemLines(text, keys);
  if (itemLines === undefined) return undefined;

  const sides: { remote: WorkspaceContent; local: WorkspaceContent } = {
    remote: { pages: [], files: [], variables: {}, reusableContents: [], settings: {} },
    local: { pages: [], files: [], variables: {}, reusableContents: [], settings: {} },
  };
  const paths = new Map<string, string>();
  for (const change of changes) {
    const key = change.path.slice(prefix.length);
    // The page's own SUMMARY.md line, alone: its title, link title and file, nothing else.
    const summary = `# Pages\n\n${itemLines.get(key)!.trim()}\n`;
    for (const [side, files] of [
      ['remote', base],
      ['local', local],
    ] as const) {
      const bytes = files.get(change.path);
      if (bytes === undefined || hasConflictMarkers(bytes)) return undefined;
      const read = readFolder(
        new Map<string, string | Uint8Array>([
          ['SUMMARY.md', summary],
          [key, bytes],
        ]),
        { index: { ...index, pages: new Map([[key, index.pages.get(key)!]]) } },
      );
      if (read.problems.some((p) => p.code !== 'missing-asset') || read.content.pages.length !== 1) return undefined;
      sides[side].pages.push(...read.content.pages);
    }
    paths.set(index.pages.get(key)!, key);
  }
  return { ...sides, paths, skipped: [], blocking: [] };
}
