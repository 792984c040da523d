import { chmod, lstat, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import type { Repo } from './repo.js';

/** The `core` keys `git init` decides by probing the file system, as it decided them. */
export interface ProbedCore {
  /** The executable bit is kept (`core.filemode`). */
  filemode: boolean;
  /** Symbolic links can be made (`core.symlinks`; git writes the key only when false). */
  symlinks: boolean;
  /** Names differing only in case are one file (`core.ignorecase`; written only when true). */
  ignorecase: boolean;
}

/**
 * Probes the file system holding `gitdir` the way git's `init` does (builtin/init-db.c): flip
 * the executable bit of `config` and see whether it sticks, make a symbolic link, and look up
 * `CoNfIg`, which exists only where names ignore case.
 */
export async function probeCore(gitdir: string): Promise<ProbedCore> {
  const config = join(gitdir, 'config');
  const before = (await stat(config)).mode;
  await chmod(config, before ^ 0o100);
  const filemode = ((await stat(config)).mode & 0o100) !== (before & 0o100);
  await chmod(config, before);
  const link = join(gitdir, `tXXXXXX-symlink-probe-${process.pid}`);
  const symlinks = await symlink('testing', link).then(
    () => true,
    () => false,
  );
  if (symlinks) await rm(link, { force: true });
  const ignorecase = await lstat(join(gitdir, 'CoNfIg')).then(
    () => true,
    () => false,
  );
  return { filemode, symlinks, ignorecase };
}

/** Writes the probed keys as `git init` would: `filemode` always, the others only where they differ from git's defaults. */
export async function writeProbedCore(r: Repo, probed: ProbedCore): Promise<void> {
  const set = (path: string, value: boolean | undefined) => git.setConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path, value });
  await set('core.filemode', probed.filemode);
  await set('core.symlinks', probed.symlinks ? undefined : false);
  await set('core.ignorecase', probed.ignorecase ? true : undefined);
}

/**
 * isomorphic-git's `init` writes Windows' answers (`filemode = false`, `symlinks = false`,
 * `ignorecase = true`) whatever the file system; git then refuses two names differing in case,
 * drops executable bits and checks symbolic links out as files. A repository holding exactly
 * those three values where the file system says otherwise was made so (by docsync before it
 * probed): its keys are set as `git init` would set them. Returns true when it changed them.
 */
export async function correctCore(r: Repo): Promise<boolean> {
  const get = (path: string) => git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path });
  const [filemode, symlinks, ignorecase] = await Promise.all([get('core.filemode'), get('core.symlinks'), get('core.ignorecase')]);
  if (filemode !== false || symlinks !== false || ignorecase !== true) return false;
  const probed = await probeCore(r.gitdir);
  if (!probed.filemode && !probed.symlinks && probed.ignorecase) return false;
  await writeProbedCore(r, probed);
  return true;
}
