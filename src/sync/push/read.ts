import { walkPages } from '../../content/index.js';
import { MAX_BASE64_BYTES } from '../../model/index.js';
import type { TreeChange } from '../../git/index.js';
import {
  GITBOOK_YAML,
  formatProblem,
  parseGitbookYaml,
  readFolder,
  rootPrefix,
  type ReadResult,
  type WorkspaceContent,
  type WorkspaceDocument,
  type WorkspaceIndex,
  type WorkspacePage,
} from '../../workspace/index.js';
import type { BranchState } from '../state/state.js';
import { hasConflictMarkers, sameBytes } from '../bytes.js';
import { folderPaths } from './changed-files.js';

/** A file push leaves out, and why: the command names each and exits non-zero. */
export interface SkippedFile {
  path: string;
  /** The line at fault, when there is one (a SUMMARY.md entry whose file is missing). */
  line?: number;
  reason: string;
}

/** `path:line` (or `path`) of a skipped file, as people read it. */
export const skippedPlace = (s: SkippedFile): string => (s.line === undefined ? s.path : `${s.path}:${s.line}`);

/** Both sides of a push as contents with ids, and what cannot be sent. */
export interface PushSides {
  remote: WorkspaceContent;
  local: WorkspaceContent;
  /** Local file of each local document page. */
  paths: Map<string, string>;
  skipped: SkippedFile[];
  /** Page files (`.md`) the branch added or changed that SUMMARY.md does not list: not pages, so not sent; said, never an error. */
  unlisted?: SkippedFile[];
  /** Problems that make the page tree itself unknown (SUMMARY.md): nothing can be sent. */
  blocking: string[];
}

const decoder = new TextDecoder();
/** Problems that leave the tree unknown; the rest belong to one file. */
const TREE_PROBLEMS = new Set(['summary-syntax', 'summary-missing', 'listed-twice', 'duplicate-slug', 'duplicate-path', 'gitbook-yaml']);
/** Problems that are warnings: the content read is still right. */
const WARNINGS = new Set(['missing-asset', 'not-in-summary', 'unrepresentable']);

export const toIndex = (index: BranchState['index']): WorkspaceIndex => ({
  pages: new Map(Object.entries(index.pages)),
  files: new Map(Object.entries(index.files)),
  includes: new Map(Object.entries(index.includes)),
});

/** The folder's root (`.gitbook.yaml` `root`), as a path prefix. */
export function folderPrefix(files: ReadonlyMap<string, Uint8Array>): string {
  const config = files.get(GITBOOK_YAML);
  return config === undefined ? '' : rootPrefix(parseGitbookYaml(decoder.decode(config)).settings.root);
}

/**
 * The index the local folder is read with: the last synced one, where git saw a page file
 * renamed (by path and content similarity) the new path keeps the old path's page id, so a
 * renamed or moved page (or include) is updated, not deleted and created again. `extra` adds ids
 * known from elsewhere (pages and includes a killed push created) for paths the synced index does
 * not have.
 */
export function renamedIndex(
  synced: WorkspaceIndex,
  changes: readonly TreeChange[],
  prefix: string,
  extra?: WorkspaceIndex,
): WorkspaceIndex {
  const pages = new Map(synced.pages);
  const includes = new Map(synced.includes);
  if (extra) for (const [key, id] of extra.pages) if (!pages.has(key)) pages.set(key, id);
  if (extra) for (const [path, id] of extra.includes) if (!includes.has(path)) includes.set(path, id);
  for (const change of changes) {
    if (change.status !== 'renamed' || !change.from.startsWith(prefix) || !change.to.startsWith(prefix)) continue;
    const from = change.from.slice(prefix.length);
    // A renamed include file keeps its reusable content too, which then gets the new name.
    for (const [index, known] of [
      [pages, synced.pages],
      [includes, synced.includes],
    ] as const) {
      const id = known.get(from);
      if (id === undefined) continue;
      index.delete(from);
      index.set(change.to.slice(prefix.length), id);
    }
  }
  return { pages, files: new Map(synced.files), includes };
}

function findDocument(pages: readonly WorkspacePage[], id: string): WorkspaceDocument | undefined {
  for (const page of walkPages(pages)) if (page.type === 'document' && page.id === id) return page;
  return undefined;
}

function withoutPage(pages: WorkspacePage[], id: string): WorkspacePage[] {
  return pages
    .filter((page) => page.id !== id)
    .map((page) => (page.type === 'link' ? page : { ...page, pages: withoutPage(page.pages, id) }));
}

/**
 * Reads both sides and decides what may be sent. A page or include file with conflict markers or
 * one that does not parse keeps the remote version (or, when new, stays out with its subpages); an asset
 * over the API's upload limit stays out; a broken SUMMARY.md blocks the whole push.
 */
export function readPushSides(
  remoteFiles: Map<string, Uint8Array>,
  remoteIndex: WorkspaceIndex,
  localFiles: Map<string, Uint8Array>,
  localIndex: WorkspaceIndex,
  unloaded?: (path: string) => boolean,
): PushSides {
  const partial = unloaded ? { unloaded } : {};
  const remote = readFolder(remoteFiles, { index: remoteIndex, ...partial }).content;
  const read: ReadResult = readFolder(localFiles, { index: localIndex, ...partial });
  const prefix = folderPrefix(localFiles);
  const skipped: SkippedFile[] = [];
  const blocking: string[] = [];
  const badFiles = new Map<string, string>();

  const summaryPath = (path: string) => path === GITBOOK_YAML || (/(?:^|\/)SUMMARY\.md$/i.test(path) && !read.pages.has(path));
  for (const [path, bytes] of localFiles) {
    if (!/\.(?:md|ya?ml)$/i.test(path)) continue;
    if (!hasConflictMarkers(bytes)) continue;
    if (summaryPath(path)) blocking.push(`${path}: it has conflict markers (resolve them, then commit)`);
    else badFiles.set(path, 'it has conflict markers (resolve them, then commit)');
  }
  const missing: SkippedFile[] = [];
  const unlisted: SkippedFile[] = [];
  for (const found of read.problems) {
    // A SUMMARY.md entry whose file is missing (a typo) waits, named by its line; the rest is sent.
    if (found.code === 'missing-file') {
      missing.push({
        path: found.file,
        ...(found.line !== undefined ? { line: found.line } : {}),
        reason: `${found.message}; the entry is not sent until the file exists`,
      });
      continue;
    }
    // A page file not listed in SUMMARY.md that the branch added or changed: said, in case the writer meant a page.
    if (found.code === 'not-in-summary' && !sameBytes(remoteFiles.get(found.file), localFiles.get(found.file))) {
      unlisted.push({
        path: found.file,
        line: 1,
        reason: `not listed in ${folderPaths(localFiles).summary}, so it is not a page and is not sent (list it there to make it one)`,
      });
      continue;
    }
    if (WARNINGS.has(found.code)) continue;
    if (TREE_PROBLEMS.has(found.code)) blocking.push(formatProblem(found));
    else if (!badFiles.has(found.file)) badFiles.set(found.file, formatProblem(found));
  }

  let pages = read.content.pages;
  let reusableContents = read.content.reusableContents;
  if (missing.length > 0) {
    skipped.push(...missing);
    for (const [path, page] of read.pages) {
      if (localFiles.has(path) || unloaded?.(path)) continue;
      // Never an empty page for a file that is not there: a page the platform has keeps its version.
      const before = findDocument(remote.pages, page.id);
      if (before) Object.assign(page, { ...before, pages: page.pages, id: page.id });
      else pages = withoutPage(pages, page.id);
    }
  }
  for (const [path, reason] of badFiles) {
    const page = read.pages.get(path);
    skipped.push({ path, reason });
    const includeId = read.index.includes.get(path.slice(prefix.length));
    if (includeId !== undefined) {
      // An include that cannot be read stays as the platform has it, or out when it is new.
      const before = remote.reusableContents.find((r) => r.id === includeId);
      reusableContents = reusableContents.flatMap((r) => (r.id !== includeId ? [r] : before ? [before] : []));
    }
    if (!page) continue;
    const before = findDocument(remote.pages, page.id);
    if (before) {
      // Keep the place from the local tree, the page itself as the platform has it.
      Object.assign(page, { ...before, pages: page.pages, id: page.id });
    } else {
      pages = withoutPage(pages, page.id);
    }
  }

  const files = read.content.files.filter((file) => {
    if ((file.bytes?.length ?? 0) <= MAX_BASE64_BYTES) return true;
    skipped.push({
      path: `${prefix}.gitbook/assets/${file.name}`,
      reason: `it is ${file.bytes!.length} bytes; the API takes at most ${MAX_BASE64_BYTES} bytes per upload`,
    });
    return false;
  });
  // Files the API cannot take stay as the platform has them, so they are neither sent nor deleted.
  for (const file of remote.files)
    if (!files.some((f) => f.name === file.name) && skipped.some((s) => s.path.endsWith(`/${file.name}`))) files.push(file);

  const paths = new Map<string, string>();
  for (const [path, page] of read.pages) paths.set(page.id, path.slice(prefix.length));
  return { remote, local: { ...read.content, pages, files, reusableContents }, paths, skipped, unlisted, blocking };
}
