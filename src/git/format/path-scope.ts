import { GitError } from '../errors.js';

/**
 * The part of a working tree some paths stand for: each path itself and everything under it
 * (a folder with its content; a watcher cannot always say whether a removed path was a file or
 * a folder, so every path is taken as possibly both). Apart from that scope, the folders on the
 * way to the paths, which deciding what a walk would reach there needs too.
 */
export class PathScope {
  /** The paths, without those under another one (which it covers). */
  readonly roots: readonly string[];
  readonly #roots: Set<string>;
  readonly #ancestors = new Set<string>();

  constructor(paths: Iterable<string>) {
    const all = new Set([...paths].map(checkScopePath));
    this.#roots = new Set([...all].filter((path) => !someAncestor(path, (folder) => all.has(folder))));
    this.roots = [...this.#roots];
    for (const path of this.roots) someAncestor(path, (folder) => void this.#ancestors.add(folder));
  }

  /** Whether `path` is one of the paths or under one. */
  covers(path: string): boolean {
    return this.#roots.has(path) || someAncestor(path, (folder) => this.#roots.has(folder));
  }

  /** Whether `path` is covered or on the way to a covered path. */
  near(path: string): boolean {
    return this.#ancestors.has(path) || this.covers(path);
  }

  /** The folders of `path` (its proper ancestors) that are near. */
  foldersNear(path: string): string[] {
    const found: string[] = [];
    let covered = false;
    for (let end = path.indexOf('/'); end >= 0; end = path.indexOf('/', end + 1)) {
      const folder = path.slice(0, end);
      covered ||= this.#roots.has(folder);
      // A folder neither covered nor on the way to a path has nothing near under it.
      if (!covered && !this.#ancestors.has(folder)) break;
      found.push(folder);
    }
    return found;
  }
}

/** Calls `test` on each proper ancestor of `path`, deepest first, until it returns true. */
function someAncestor(path: string, test: (folder: string) => boolean | void): boolean {
  for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
    if (test(path.slice(0, end)) === true) return true;
  }
  return false;
}

/**
 * A path relative to the working tree, `/`-separated, that cannot leave it. Unlike checkPath,
 * a `.git` segment is allowed: a watcher may report one, and it stands for nothing to commit.
 */
function checkScopePath(path: string): string {
  const bad =
    path === '' ||
    path.includes('\0') ||
    path.startsWith('/') ||
    path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad)
    throw new GitError('invalid-path', `invalid path ${JSON.stringify(path)}: not a relative, /-separated path inside the working tree`, {
      path,
    });
  return path;
}
