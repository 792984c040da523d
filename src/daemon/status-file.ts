import { writeJsonFile } from '../sync/index.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../sync/index.js';
import type { DaemonActivity, DaemonEvent } from './events.js';

/** What a running daemon says about itself, for `docsync status` in another shell. */
export interface DaemonStatus {
  pid: number;
  startedAt: string;
  updatedAt: string;
  activity: DaemonActivity;
  branch: string | null;
  /** Saved files not yet committed (waiting for the burst to settle). */
  pendingFiles: number;
  /** Branches with commits not yet on their change request. */
  unpushed: string[];
  /** Cycles finished since the daemon started. */
  cycles: number;
  lastCommit?: { at: string; branch: string; files: string[] };
  lastPush?: { at: string; branch: string; changeRequest: number | undefined };
  lastPull?: { at: string; branch: string; files: number };
  /** Set while the server cannot be reached. */
  offline?: { since: string; failures: number; nextTryAt: string; message: string };
  lastProblem?: { at: string; event: DaemonEvent };
}

export const statusPath = (workspace: string) => join(stateDir(workspace), 'daemon.json');

/** Written whole and renamed into place: a reader never sees half of it. */
export async function writeDaemonStatus(workspace: string, status: DaemonStatus): Promise<void> {
  const path = statusPath(workspace);
  await writeJsonFile(path, status);
}

export async function readDaemonStatus(workspace: string): Promise<DaemonStatus | undefined> {
  try {
    return JSON.parse(await readFile(statusPath(workspace), 'utf8')) as DaemonStatus;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
