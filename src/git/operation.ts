import { access } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import type { Person } from './commit/commit-files.js';
import { repo } from './repo.js';

/** Files git keeps while a command that stops half-way is in progress, and what each means. */
const IN_PROGRESS: readonly [string, string][] = [
  ['MERGE_HEAD', 'a merge is in progress'],
  ['rebase-merge', 'a rebase is in progress'],
  ['rebase-apply', 'a rebase or git am is in progress'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick is in progress'],
  ['REVERT_HEAD', 'a revert is in progress'],
  ['BISECT_LOG', 'a bisect is in progress'],
];

/**
 * Why committing now would get in the way of the user's own git command, or undefined when
 * nothing is in progress. A commit in the middle of a merge or rebase would record half of it.
 */
export async function gitOperationInProgress(dir: string): Promise<string | undefined> {
  const r = await repo(dir);
  for (const [file, what] of IN_PROGRESS) {
    if (
      await access(join(r.gitdir, file)).then(
        () => true,
        () => false,
      )
    )
      return what;
  }
  return undefined;
}

/** `user.name` and `user.email` of the repository's own config, when both are set. */
export async function configuredAuthor(dir: string): Promise<Person | undefined> {
  const r = await repo(dir);
  const name = (await git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path: 'user.name' })) as unknown;
  const email = (await git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path: 'user.email' })) as unknown;
  return typeof name === 'string' && name !== '' && typeof email === 'string' && email !== '' ? { name, email } : undefined;
}
