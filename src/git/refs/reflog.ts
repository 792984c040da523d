import { appendFile, access, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as git from 'isomorphic-git';
import { reflogLine, type ReflogIdentity } from '../format/reflog-line.js';
import type { Repo } from '../repo.js';

/** Why a ref moved, and who moved it (the identity defaults to the repository's `user.name`/`user.email`). */
export interface RefLogNote {
  message: string;
  who?: Omit<ReflogIdentity, 'timestamp'> & { timestamp?: number };
}

/** The identity git would record: `user.name`/`user.email` of the repository, else docsync's own. */
async function configuredIdentity(r: Repo): Promise<{ name: string; email: string }> {
  const get = (path: string) => git.getConfig({ fs: r.fs, gitdir: r.gitdir, path }) as Promise<string | undefined>;
  return { name: (await get('user.name')) ?? 'docsync', email: (await get('user.email')) ?? 'docsync@localhost' };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Whether git would log an update of `ref` (refs.c, `should_autocreate_reflog`): with
 * `core.logAllRefUpdates` unset or true (git's default in a repository with a working tree),
 * branches, remote-tracking refs, notes and HEAD get a log; `always` logs every ref; otherwise a
 * ref is logged only when its log already exists.
 */
async function shouldLog(r: Repo, ref: string, logPath: string): Promise<boolean> {
  if (await exists(logPath)) return true;
  const setting = (await git.getConfig({ fs: r.fs, gitdir: r.gitdir, path: 'core.logAllRefUpdates' })) as string | boolean | undefined;
  const value = typeof setting === 'string' ? setting.toLowerCase() : setting;
  if (value === 'always') return true;
  if (value === false || value === 'false') return false;
  const bare = (await git.getConfig({ fs: r.fs, gitdir: r.gitdir, path: 'core.bare' })) as boolean | string | undefined;
  if (value === undefined && (bare === true || bare === 'true')) return false;
  return ref === 'HEAD' || /^refs\/(heads|remotes|notes)\//.test(ref);
}

/** The ref HEAD points at, or undefined when HEAD is detached or unreadable. */
async function headTarget(r: Repo): Promise<string | undefined> {
  const branch = await git.currentBranch({ fs: r.fs, gitdir: r.gitdir, fullname: true }).catch(() => undefined);
  return typeof branch === 'string' ? branch : undefined;
}

/**
 * Appends the reflog entry of a ref update, as git does after moving a ref: to `logs/<ref>`, and
 * to `logs/HEAD` too when HEAD points at that ref, so `git reflog` and `git reset HEAD@{1}` can
 * undo what docsync did. Called once the ref has moved; a log that cannot be written does not
 * undo the move (git behaves the same).
 */
export async function appendReflog(r: Repo, ref: string, old: string | null, next: string, note: RefLogNote): Promise<void> {
  const who = { ...(await configuredIdentity(r)), timestamp: Math.floor(Date.now() / 1000), ...note.who };
  const line = reflogLine(old, next, who, note.message);
  const targets = [ref];
  if (ref !== 'HEAD' && (await headTarget(r)) === ref) targets.push('HEAD');
  for (const target of targets) {
    const logPath = join(r.gitdir, 'logs', target);
    if (!(await shouldLog(r, target, logPath))) continue;
    await mkdir(dirname(logPath), { recursive: true });
    await appendFile(logPath, line);
  }
}

/** The note git writes for a commit: `commit: <subject>`, `commit (initial): ...` without a parent, `commit (merge): ...` with several. */
export function commitNote(message: string, parents: number, who: RefLogNote['who']): RefLogNote {
  const kind = parents === 0 ? 'commit (initial)' : parents > 1 ? 'commit (merge)' : 'commit';
  return { message: `${kind}: ${message}`, ...(who ? { who } : {}) };
}
