import { GitError } from '../errors.js';

/**
 * Checks that a path names a file inside the repository: relative, `/`-separated, with no empty,
 * `.` or `..` segment and no `.git` segment (any case, as git refuses them on case-insensitive
 * file systems). A path that passes can be joined to the working tree without escaping it.
 */
export function checkPath(path: string): string {
  const why = pathProblem(path);
  if (why !== undefined) throw new GitError('invalid-path', `invalid path ${JSON.stringify(path)}: ${why}`, { path });
  return path;
}

function pathProblem(path: string): string | undefined {
  if (path === '') return 'empty';
  if (path.includes('\0')) return 'contains a NUL byte';
  if (path.includes('\\')) return 'contains a backslash (use /)';
  if (path.startsWith('/')) return 'absolute';
  for (const segment of path.split('/')) {
    if (segment === '') return 'empty segment';
    if (segment === '.' || segment === '..') return `segment "${segment}"`;
    if (segment.toLowerCase() === '.git') return 'inside .git';
  }
  return undefined;
}

/**
 * The one UTF-8 path order: that of `git diff`, of tree walks and of tree objects, byte order of
 * the UTF-8 paths. It is code point order, computed without encoding: JavaScript's `<` compares
 * UTF-16 code units, which differs only where a surrogate (a character beyond U+FFFF) meets
 * U+E000 to U+FFFF, so surrogates rank above those.
 */
export function comparePaths(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number) => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit);

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The rules of `git check-ref-format --branch`, so that a branch we create is one the git CLI
 * and any git host accept (change-request branches are built from user-written subjects).
 */
export function checkBranchName(name: string): string {
  const why = branchProblem(name);
  if (why !== undefined) throw new GitError('invalid-ref', `invalid branch name ${JSON.stringify(name)}: ${why}`, { branch: name });
  return name;
}

function branchProblem(name: string): string | undefined {
  if (name === '' || name === '@') return 'empty or "@"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'contains a space, control character or one of ~^:?*[\\';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{')) return 'contains "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'empty path component';
  if (name.endsWith('.')) return 'ends with "."';
  if (name.startsWith('-')) return 'starts with "-"';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'a component starts with "."';
    if (part.endsWith('.lock')) return 'a component ends with ".lock"';
  }
  return undefined;
}
