import { readdir, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { SyncError } from './errors.js';
import { commitFiles, initRepo } from '../git/index.js';
import { loadFolder } from '../workspace/index.js';
import { DOCSYNC_AUTHOR } from './author.js';
import { writeUnbound } from './state/unbound.js';

export interface InitOptions {
  /** Title of the space `publishWorkspace` creates (at most 50 characters). @default the folder's name */
  title?: string;
}

export interface InitResult {
  dir: string;
  title: string;
  /** The commit on `main` holding the template. */
  commit: string;
  /** The files written, by path. */
  files: string[];
}

/** The API's limit on a space title. */
const TITLE_MAX = 50;

/** Checks a space title the way the API will, so a bad one fails before anything is written. */
export function checkSpaceTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === '') throw new SyncError('invalid-title', 'the space title is empty; give one with --title');
  if ([...trimmed].length > TITLE_MAX)
    throw new SyncError(
      'invalid-title',
      `the space title "${trimmed}" has ${[...trimmed].length} characters; at most ${TITLE_MAX} are allowed`,
    );
  return trimmed;
}

async function assertNewFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return;
  if (!info.isDirectory())
    throw new SyncError('folder-not-empty', `${dir} exists and is not a folder; docsync init makes a workspace in a new or empty folder`);
  if ((await readdir(dir)).length > 0)
    throw new SyncError('folder-not-empty', `${dir} exists and is not empty; docsync init makes a workspace in a new or empty folder`);
}

/**
 * Makes a new workspace in `dir` (missing or empty) from the folder `templateDir`: a git
 * repository whose `main` holds the template's files in one commit, checked out, and marked as
 * not yet bound to a space (`publishWorkspace` creates the space and binds it). The folder is
 * checked and the template read before anything is written.
 */
export async function initWorkspace(dir: string, templateDir: string, options: InitOptions = {}): Promise<InitResult> {
  const root = resolve(dir);
  await assertNewFolder(root);
  const title = checkSpaceTitle(options.title ?? [...basename(root)].slice(0, TITLE_MAX).join(''));
  const files = await loadFolder(resolve(templateDir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new SyncError('template-missing', `the workspace template ${resolve(templateDir)} is missing`);
    throw error;
  });
  if (files.size === 0) throw new SyncError('template-missing', `the workspace template ${resolve(templateDir)} has no files`);

  await initRepo(root, { defaultBranch: 'main' });
  const commit = await commitFiles(root, {
    branch: 'main',
    parent: null,
    files,
    message: `docsync: new workspace "${title}" from the template`,
    author: DOCSYNC_AUTHOR,
    checkout: true,
  });
  await writeUnbound(root, { version: 1, title });
  return { dir: root, title, commit, files: [...files.keys()].sort() };
}
