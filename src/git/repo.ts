import fs from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as git from 'isomorphic-git';
import { gitFs } from './atomic-fs.js';
import { GitError } from './errors.js';
import { correctCore, probeCore, writeProbedCore } from './repo-config.js';

/**
 * What every isomorphic-git call needs: node's fs and the repository paths. `cache` is shared by
 * the calls of one operation; what it holds of packs is shared by every call of the process
 * (see callCache).
 */
export interface Repo {
  fs: typeof fs;
  dir: string;
  gitdir: string;
  cache: object;
}

/**
 * The repository whose working tree is `dir`; throws `not-a-repo` naming `dir` when `.git` is
 * missing, and `unsupported-repository` for a format neither docsync's fast paths nor
 * isomorphic-git can read or write (see checkRepositoryFormat).
 */
export async function repo(dir: string): Promise<Repo> {
  const root = resolve(dir);
  const gitdir = join(root, '.git');
  const info = await stat(gitdir).catch(() => undefined);
  if (!info?.isDirectory()) throw new GitError('not-a-repo', `not a git repository: ${root} (no .git folder)`, { dir: root });
  await checkRepositoryFormat(root, gitdir);
  return { fs: gitFs, dir: root, gitdir, cache: callCache(gitdir) };
}

/** Repositories whose packs are kept parsed; the least recently opened is dropped past this. */
const PACKED_REPOSITORIES = 8;
const packCaches = new Map<string, { packs?: unknown }>();

/**
 * A cache object for isomorphic-git's calls on `gitdir` that shares one thing between them: the
 * packs it parsed (each pack's index, and the pack itself once an object was read from it, kept
 * under its `PackfileCache` key). A pack never changes under its name (`pack-<checksum>`), and
 * isomorphic-git lists the pack folder on each read, so a shared map is never stale, only holds a
 * pack a `git gc` removed until the repository leaves the cache. Without it, every read of a file
 * at a commit parsed the whole pack index again (5,000 entries after a clone of a 5,000-page
 * space: a few ms each, several times per push). Everything else in the object (the parsed index
 * of the working tree, which isomorphic-git checks against the file's stat data) stays per call.
 */
function callCache(gitdir: string): object {
  let shared = packCaches.get(gitdir);
  if (shared === undefined) {
    shared = {};
    if (packCaches.size >= PACKED_REPOSITORIES) packCaches.delete(packCaches.keys().next().value!);
  } else packCaches.delete(gitdir);
  packCaches.set(gitdir, shared);
  const isPacks = (key: string | symbol) => typeof key === 'symbol' && key.description === 'PackfileCache';
  const entry = shared;
  return new Proxy(
    {},
    {
      get: (target, key) => (isPacks(key) ? entry.packs : Reflect.get(target, key)),
      set: (target, key, value) => (isPacks(key) ? ((entry.packs = value), true) : Reflect.set(target, key, value)),
    },
  );
}

/**
 * Creates a repository in `dir` (and `dir` itself when missing) with HEAD on `defaultBranch`,
 * which has no commit yet, its `core` settings probed from the file system as `git init` does.
 * Running it on an existing repository changes nothing.
 * @returns the absolute path of the working tree.
 */
export async function initRepo(dir: string, options: { defaultBranch?: string } = {}): Promise<string> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const existed = await stat(join(root, '.git', 'config')).then(
    () => true,
    () => false,
  );
  await git.init({ fs, dir: root, defaultBranch: options.defaultBranch ?? 'main' });
  // isomorphic-git writes Windows' core settings everywhere; git probes the file system.
  if (!existed) {
    const r = await repo(root);
    await writeProbedCore(r, await probeCore(r.gitdir));
  }
  return root;
}

/**
 * Sets `core.filemode`, `symlinks` and `ignorecase` as `git init` would in a repository an
 * earlier docsync made with isomorphic-git's Windows defaults (`correctCore`).
 * @returns true when the configuration was changed (say so once: the next run finds it right).
 */
export async function correctRepoConfig(dir: string): Promise<boolean> {
  return correctCore(await repo(dir));
}

/**
 * Finds the repository that contains `dir` (the folder itself or its nearest parent with a
 * `.git` folder), as `git` does from a subfolder.
 * @returns the absolute path of the working tree.
 */
export async function openRepo(dir: string): Promise<string> {
  const start = resolve(dir);
  try {
    const root = await git.findRoot({ fs, filepath: start });
    return (await repo(root)).dir;
  } catch (error) {
    if (error instanceof GitError) throw error;
    throw new GitError('not-a-repo', `not a git repository (or any parent up to /): ${start}`, { dir: start }, { cause: error });
  }
}

/**
 * Runs an isomorphic-git call, turning its "not found" into ours with a message that names what
 * was looked for and where, since isomorphic-git's names only the missing object.
 */
export async function notFoundAs<T>(r: Repo, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) {
      throw new GitError('not-found', `${what} not found in ${r.dir}`, { dir: r.dir, what }, { cause: error });
    }
    throw error;
  }
}

/**
 * Refuses, with a clear error, a repository whose objects are not sha1 (`extensions.objectFormat
 * = sha256`) or whose refs are not files (`extensions.refStorage = reftable`): docsync's fast
 * paths hash with sha1 and write ref files, and isomorphic-git, the other path, supports neither,
 * so going on would write objects and refs such a repository cannot read.
 */
async function checkRepositoryFormat(root: string, gitdir: string): Promise<void> {
  const config = await readFile(join(gitdir, 'config'), 'utf8').catch(() => '');
  const objectFormat = extension(config, 'objectformat') ?? 'sha1';
  const refStorage = extension(config, 'refstorage') ?? 'files';
  if (objectFormat !== 'sha1') {
    throw new GitError(
      'unsupported-repository',
      `${root} stores its objects with ${objectFormat} (extensions.objectFormat); docsync works with sha1 repositories only: clone into a new folder with git init --object-format=sha1`,
      { dir: root, objectFormat },
    );
  }
  if (refStorage !== 'files') {
    throw new GitError(
      'unsupported-repository',
      `${root} stores its refs in ${refStorage} (extensions.refStorage); docsync works with the files ref storage only: convert it with git refs migrate --ref-format=files`,
      { dir: root, refStorage },
    );
  }
}

/** The value of `[extensions] name` in a git config text (keys are case-insensitive), if set. */
function extension(config: string, name: string): string | undefined {
  let inExtensions = false;
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s]+)[^\]]*\]/.exec(line);
    if (section) {
      inExtensions = section[1]!.toLowerCase() === 'extensions';
      continue;
    }
    const entry = /^([A-Za-z0-9-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (inExtensions && entry && entry[1]!.toLowerCase() === name) return entry[2]!.toLowerCase();
  }
  return undefined;
}
