import type { TreeChange } from '../../git/index.js';
import { parseSummary, readFolder, topItems, type SummaryItem, type WorkspaceContent, type WorkspaceIndex } from '../../workspace/index.js';
import type { PushSides } from './read.js';
import { hasConflictMarkers } from '../bytes.js';

const decoder = new TextDecoder();

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
  const summaryLines = decoder.decode(summaryText).split('\n');
  const parsed = parseSummary(summaryLines.join('\n'));
  const items = itemsByTarget(topItems(parsed.summary));

  const sides: { remote: WorkspaceContent; local: WorkspaceContent } = {
    remote: { pages: [], files: [], variables: {}, reusableContents: [], settings: {} },
    local: { pages: [], files: [], variables: {}, reusableContents: [], settings: {} },
  };
  const paths = new Map<string, string>();
  for (const change of changes) {
    const key = change.path.slice(prefix.length);
    const item = items.get(key);
    if (item === undefined) return undefined;
    // The page's own SUMMARY.md line, alone: its title, link title and file, nothing else.
    const summary = `# Pages\n\n${summaryLines[item.line - 1]!.trim()}\n`;
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
