import { gitCli } from './helpers.js';

export interface PathStatus {
  path: string;
  status: string;
}

const byPath = (a: PathStatus, b: PathStatus) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path));

/** `git status --porcelain` as path → 'added' | 'modified' | 'deleted' relative to HEAD. */
export async function cliStatus(dir: string): Promise<PathStatus[]> {
  const out = await gitCli(dir, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames');
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const code = entry.slice(0, 2);
      const status = code === '??' || code.includes('A') ? 'added' : code.includes('D') ? 'deleted' : 'modified';
      return { path: entry.slice(3), status };
    })
    .sort(byPath);
}

/**
 * The working tree against HEAD by the git CLI, staged or not: `git diff HEAD` plus the
 * untracked files `git status` lists. This is workingTreeChanges' contract; it differs from
 * `git status` for a file staged and then put back as it was in HEAD (status says `MM`).
 */
export async function cliChanges(dir: string): Promise<PathStatus[]> {
  // docsync's status is by content, as isomorphic-git's statusMatrix: a change of the executable
  // bit alone is not one (git lists it where core.filemode is true, as git init sets it on Linux).
  const diff = (await gitCli(dir, '-c', 'core.filemode=false', 'diff', '--name-status', '--no-renames', '-z', 'HEAD'))
    .split('\0')
    .filter(Boolean);
  const changes: PathStatus[] = [];
  for (let i = 0; i < diff.length; i += 2) {
    const letter = diff[i]!;
    changes.push({ path: diff[i + 1]!, status: letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified' });
  }
  const untracked = (await gitCli(dir, 'ls-files', '-z', '--others', '--exclude-standard')).split('\0').filter(Boolean);
  for (const path of untracked) changes.push({ path, status: 'added' });
  return changes.sort(byPath);
}
