import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { notFoundAs, type Repo, repo } from '../repo.js';
import { fullRef, readRef } from './update-ref.js';

export interface CommitInfo {
  oid: string;
  tree: string;
  /** First parent first; empty for a root commit. */
  parents: string[];
  message: string;
  author: { name: string; email: string; timestamp: number };
  committer: { name: string; email: string; timestamp: number };
}

const OID = /^[0-9a-f]{40}$/;

/** A 40-hex oid as it is; a branch name (or full ref) to its commit, `not-found` when missing. */
export async function resolveCommit(r: Repo, refOrOid: string): Promise<string> {
  if (OID.test(refOrOid)) return refOrOid;
  const oid = await readRef(r, fullRef(refOrOid));
  if (oid === null) throw new GitError('not-found', `branch ${refOrOid} not found in ${r.dir}`, { dir: r.dir, branch: refOrOid });
  return oid;
}

/**
 * Commits reachable from a branch (or commit oid), newest first, following all parents in
 * committer-date order as `git log` does; at most `depth` of them when given.
 */
export async function log(dir: string, branch: string, depth?: number): Promise<CommitInfo[]> {
  const r = await repo(dir);
  const oid = await resolveCommit(r, branch);
  const entries = await notFoundAs(r, `history of ${branch}`, () =>
    git.log({ fs: r.fs, gitdir: r.gitdir, ref: oid, ...(depth === undefined ? {} : { depth }), cache: r.cache }),
  );
  return entries.map(({ oid: commitOid, commit }) => ({
    oid: commitOid,
    tree: commit.tree,
    parents: commit.parent,
    message: commit.message,
    author: { name: commit.author.name, email: commit.author.email, timestamp: commit.author.timestamp },
    committer: { name: commit.committer.name, email: commit.committer.email, timestamp: commit.committer.timestamp },
  }));
}

/**
 * True when commit `a` is `b` or one of its ancestors: `git merge-base --is-ancestor a b`.
 * (isomorphic-git's isDescendent alone says false for a === b.)
 */
export async function isAncestor(dir: string, a: string, b: string): Promise<boolean> {
  const r = await repo(dir);
  const [from, to] = [await resolveCommit(r, a), await resolveCommit(r, b)];
  if (from === to) return true;
  return notFoundAs(r, `commit ${from} or ${to}`, () =>
    git.isDescendent({ fs: r.fs, gitdir: r.gitdir, oid: to, ancestor: from, depth: -1, cache: r.cache }),
  );
}

/**
 * A best common ancestor of two commits, or null when their histories are unrelated. When there
 * are several (criss-cross merges) the lowest oid is chosen, so the answer is stable.
 */
export async function mergeBase(dir: string, a: string, b: string): Promise<string | null> {
  const r = await repo(dir);
  const oids = [await resolveCommit(r, a), await resolveCommit(r, b)];
  const bases: string[] = await notFoundAs(r, `commit ${oids[0]} or ${oids[1]}`, () =>
    git.findMergeBase({ fs: r.fs, gitdir: r.gitdir, oids, cache: r.cache }),
  );
  return bases.sort()[0] ?? null;
}
