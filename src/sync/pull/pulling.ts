import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { branchOid, checkoutPaths, currentBranch, diffTrees, readBlob, removeTemporaryFiles } from '../../git/index.js';
import { sameBytes } from '../bytes.js';
import { writeJsonFile } from '../state/json-file.js';
import { stateDir } from '../state/state.js';

/**
 * `.git/docsync/pulling.json`: a pull into the checked-out branch in flight, written before the
 * branch moves and removed once the working tree and the index hold what it pulled. A pull killed
 * in between left the branch at the pulled commit and the files, or some of them, as they were:
 * the next command took them for local edits (they undo the pull), saved them and pushed them
 * (test/cli/kill-commands.test.ts). {@link finishPull} ends the checkout first. A push's
 * read-back (the server's form of the files it sent) and its catch-up with main move the
 * checked-out branch the same way and record it here too (test/cli/read-back-crash.test.ts).
 */
interface Pulling {
  version: 1;
  branch: string;
  /** The branch's commit before the pull: the files on disk are this commit's, or the pulled one's. */
  before: string;
}

const pullingPath = (dir: string) => join(stateDir(dir), 'pulling.json');

export async function startPull(dir: string, branch: string, before: string): Promise<void> {
  await writeJsonFile(pullingPath(dir), { version: 1, branch, before } satisfies Pulling, { pretty: false, flush: true });
}

export async function endPull(dir: string): Promise<void> {
  await rm(pullingPath(dir), { force: true });
}

/**
 * Ends the checkout of a pull that was killed: each file the pull changed that is on disk as it
 * was before the pull, or already as pulled, is brought to the pulled commit, in the working tree
 * and the index; a file that is neither was edited since, and stays. (Each file is replaced
 * whole, never half written: what a killed write left is a temporary file beside it, removed.)
 */
export async function finishPull(dir: string): Promise<void> {
  let pending: Pulling;
  try {
    pending = JSON.parse(await readFile(pullingPath(dir), 'utf8')) as Pulling;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    // Written atomically, so never half a file; anything else unreadable says nothing to finish.
    await endPull(dir);
    return;
  }
  const now = await branchOid(dir, pending.branch);
  if (now !== null && now !== pending.before && (await currentBranch(dir)) === pending.branch) {
    const paths: string[] = [];
    const changes = await diffTrees(dir, pending.before, now, { renames: false });
    await removeTemporaryFiles(
      dir,
      changes.map((change) => change.path),
    );
    for (const change of changes) {
      const onDisk = await readFile(join(dir, change.path)).catch(() => undefined);
      const old = 'oldOid' in change ? await readBlob(dir, change.oldOid) : undefined;
      const pulled = 'newOid' in change ? await readBlob(dir, change.newOid) : undefined;
      if (sameBytes(onDisk, old) || sameBytes(onDisk, pulled)) paths.push(change.path);
    }
    await checkoutPaths(dir, now, paths);
  }
  await endPull(dir);
}
