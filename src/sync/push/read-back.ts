import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client, ContentScope } from '../../client/index.js';
import { checkoutPaths, commitEdits, commitFiles, readTreeFiles, type TreeChange } from '../../git/index.js';
import type { ChangeRequest, ContentChange } from '../../model/index.js';
import { renderDocument } from '../../workspace/index.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import { sameBytes } from '../bytes.js';
import { mergeFiles } from '../pull/merge-files.js';
import { crlfPaths, withCrlfAt } from '../line-endings.js';
import { lostLinks, type UnsentLink } from './lost-links.js';
import { journalHook } from './journal.js';
import { endPull, startPull } from '../pull/pulling.js';
import { commitRemoteEdits, commitRemoteSnapshot } from '../remote/commit.js';
import { fetchContent, toWorkspacePage } from '../remote/content.js';
import { knownContent } from '../remote/known-content.js';
import { snapshotOf, type Places } from '../remote/snapshot.js';
import type { BranchState } from '../state/state.js';

/** update_page fields that live in the page's own file: changing only these leaves SUMMARY.md as it was. */
export const PAGE_FILE_FIELDS: ReadonlySet<string> = new Set([
  'operation',
  'page',
  'document',
  'emoji',
  'icon',
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'condition',
]);

/**
 * The pages a push changed when it changed nothing but pages' own files (documents and front
 * matter), or undefined when it did more (a new, moved, renamed or deleted page, a file, the
 * variables): then only the whole content, read back, says what the folder is.
 */
export function pageFilesOnly(changes: readonly ContentChange[]): string[] | undefined {
  const pages: string[] = [];
  for (const change of changes) {
    if (change.operation !== 'update_page' || !Object.keys(change).every((key) => PAGE_FILE_FIELDS.has(key))) return undefined;
    pages.push(change.page);
  }
  return pages;
}

/**
 * The files of `pageIds` as the server now holds them, rendered as `writeFolder` would: one
 * request per page, whatever the size of the space. `pathOf` gives each page's file.
 */
export async function readBackPages(
  client: Client,
  scope: ContentScope,
  pageIds: readonly string[],
  pathOf: (pageId: string) => { root: string; path: string },
  assetName: (fileId: string) => string | undefined,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  await Promise.all(
    [...new Set(pageIds)].map(async (id) => {
      const page = toWorkspacePage(await client.content.page(scope, id, { format: 'markdown' }));
      if (page.type !== 'document') return;
      const { root, path } = pathOf(id);
      files.set(root + path, encoder.encode(renderDocument(page, path, assetName)));
    }),
  );
  return files;
}

export interface Pushed {
  client: Client;
  dir: string;
  spaceId: string;
  branch: string;
  checkedOut: boolean;
  /** The branch commit that was pushed. */
  head: string;
  /** What the push was measured from. */
  base: BranchState;
  changeRequest: ChangeRequest;
  /** The head the last batch produced. */
  revision: string;
  changes: readonly ContentChange[];
  /** The push compared the whole branch with the change request (a resumed push whose batch landed). */
  wholeCompare: boolean;
  /** The branch files the push read: at least every changed one. */
  local: ReadonlyMap<string, Uint8Array>;
  prefix: string;
  pathOf: (pageId: string) => string;
  localChanges: readonly TreeChange[];
  /** Files left out: the branch keeps its own version. */
  skipped: ReadonlySet<string>;
  /** Each page's file on the branch, by platform id: the read-back writes pages there. */
  places: Places;
}

export interface ReadBack {
  revision: string;
  commit: string;
  index: BranchState['index'];
  /** Branch files rewritten to the server's form. */
  normalised: string[];
  /**
   * Links the server did not store (it kept their text): their files keep the writer's version,
   * and the synced point the server's, so the next push sends them again.
   */
  unsentLinks: UnsentLink[];
}

const normalisedMessage = (paths: readonly string[], number: number) =>
  `docsync: the server's form of ${paths.length} file(s) after pushing to change request #${number}\n\n${paths.join('\n')}\n`;

/**
 * Brings the files docsync just rewrote on the checked-out branch into the working tree, except
 * those edited on disk since the push read them: an edit made while the push ran wins (the next
 * push sends it), nothing is overwritten.
 */
async function checkoutUnedited(
  dir: string,
  commit: string,
  pushed: ReadonlyMap<string, Uint8Array>,
  paths: readonly string[],
): Promise<void> {
  const unedited: string[] = [];
  for (const path of paths) {
    const onDisk = await readFile(join(dir, path)).catch(() => undefined);
    if (sameBytes(onDisk, pushed.get(path))) unedited.push(path);
  }
  await checkoutPaths(dir, commit, unedited);
}

/**
 * After a push, what the server stored becomes the branch's synced point (a commit of exactly
 * the remote content), and where the server stored a file in another form than the branch has
 * it, that form is committed on the branch, so the next diff is empty. A push that changed only
 * pages' own files reads back just those pages; any other reads the whole change request.
 */
export async function readBack(p: Pushed): Promise<ReadBack> {
  const { dir, branch, changeRequest } = p;
  const scope = { space: p.spaceId, changeRequest: changeRequest.id };
  // Only when the branch changed nothing but existing files' content: a file renamed or moved
  // without a change on the platform (same slug, same place in the tree: update_page of its
  // document alone) must leave the synced point with the file where the branch has it, SUMMARY.md
  // included, which only the whole read-back writes.
  const filesKept = p.localChanges.every((c) => c.status === 'modified');
  const onlyPages = p.wholeCompare || !filesKept ? undefined : pageFilesOnly(p.changes);
  if (onlyPages !== undefined) {
    const fileNames = new Map(Object.entries(p.base.index.files).map(([name, id]) => [id, name]));
    const serverForm = withCrlfAt(
      await readBackPages(
        p.client,
        scope,
        onlyPages,
        (id) => ({ root: p.prefix, path: p.pathOf(id) }),
        (id) => fileNames.get(id),
      ),
      crlfPaths(p.local),
    );
    const remoteCommit = await commitRemoteEdits(
      dir,
      branch,
      p.base.syncedCommit,
      serverForm,
      `docsync: change request #${changeRequest.number} at revision ${p.revision} after push`,
    );
    const unsentLinks = [...serverForm].flatMap(([path, bytes]) => (p.local.has(path) ? lostLinks(path, p.local.get(path)!, bytes) : []));
    const keep = new Set(unsentLinks.map((l) => l.path));
    const edits = new Map([...serverForm].filter(([path, bytes]) => !keep.has(path) && !sameBytes(bytes, p.local.get(path))));
    const normalised = [...edits.keys()].sort();
    if (edits.size > 0) {
      // Recorded before the branch moves: a kill before the files follow is finished by the next command (pulling.ts).
      if (p.checkedOut) await startPull(dir, branch, p.head);
      const commit = await commitEdits(dir, {
        branch,
        parent: p.head,
        mergeParents: [remoteCommit],
        from: p.head,
        edits,
        author: DOCSYNC_AUTHOR,
        message: normalisedMessage(normalised, changeRequest.number),
      });
      journalHook('read-back', 0);
      if (p.checkedOut) {
        await checkoutUnedited(dir, commit, p.local, normalised);
        await endPull(dir);
      }
    }
    return { revision: p.revision, commit: remoteCommit, index: p.base.index, normalised, unsentLinks };
  }
  const fetched = snapshotOf(await fetchContent(p.client, scope, undefined, knownContent(p.dir)), p.places);
  const localFiles = await readTreeFiles(dir, p.head);
  // The branch's CRLF files keep their endings, at the synced point too.
  const snapshot = { ...fetched, files: withCrlfAt(fetched.files, crlfPaths(localFiles)) };
  const remoteCommit = await commitRemoteSnapshot(
    dir,
    branch,
    p.base.syncedCommit,
    snapshot.files,
    `docsync: change request #${changeRequest.number} at revision ${snapshot.revision} after push`,
  );
  const baseFiles = await readTreeFiles(dir, p.base.syncedCommit);
  // Files the branch changed (and sent) take the server's form; the rest merges three-way, so
  // files the folder format does not carry (notes, a .gitignore) stay as they are.
  const merged = mergeFiles(baseFiles, localFiles, snapshot.files);
  const unsentLinks: UnsentLink[] = [];
  for (const change of p.localChanges) {
    if (change.status === 'deleted' || p.skipped.has(change.path)) continue;
    const theirs = snapshot.files.get(change.path);
    if (theirs === undefined) continue;
    // A link the server could not store (it keeps the text only) stays in the writer's file.
    const lost = /\.md$/i.test(change.path) ? lostLinks(change.path, localFiles.get(change.path)!, theirs) : [];
    unsentLinks.push(...lost);
    merged.files.set(change.path, lost.length > 0 ? localFiles.get(change.path)! : theirs);
  }
  // A file the branch has and did not delete stays, even when the platform has no page for it
  // (its SUMMARY.md line removed, the file kept): read-back never deletes the writer's file.
  for (const [path, bytes] of localFiles) if (!merged.files.has(path)) merged.files.set(path, bytes);
  // A file the push could send only part of (SUMMARY.md with a link page a server without the
  // extension cannot take) merges with conflicts: the writer's own version stays, never markers.
  // The synced point holds the server's form, so the next push tries the rest again and says so.
  for (const path of merged.conflicts) {
    if (snapshot.files.has(path) && sameBytes(merged.files.get(path), snapshot.files.get(path))) continue;
    const ours = localFiles.get(path);
    if (ours === undefined) merged.files.delete(path);
    else merged.files.set(path, ours);
  }
  const normalised = [...new Set([...merged.files.keys(), ...localFiles.keys()])]
    .filter((path) => !sameBytes(merged.files.get(path), localFiles.get(path)))
    .sort();
  if (normalised.length > 0) {
    if (p.checkedOut) await startPull(dir, branch, p.head);
    const commit = await commitFiles(dir, {
      branch,
      parent: p.head,
      mergeParents: [remoteCommit],
      files: merged.files,
      author: DOCSYNC_AUTHOR,
      message: normalisedMessage(normalised, changeRequest.number),
    });
    journalHook('read-back', 0);
    if (p.checkedOut) {
      await checkoutUnedited(dir, commit, localFiles, normalised);
      await endPull(dir);
    }
  }
  return { revision: snapshot.revision, commit: remoteCommit, index: snapshot.index, normalised, unsentLinks };
}
