import type { ArrivedComment, KeptFile, SyncErrorCode } from '../sync/index.js';

/** What the daemon tells its caller, one event per thing that happened (the CLI prints each). */
export type DaemonEvent =
  | { type: 'started'; dir: string; branch: string | null; pid: number; debounceMs: number; pollMs: number }
  /** Saved files became a commit on the checked-out branch. */
  | { type: 'committed'; branch: string; commit: string; files: string[] }
  /** A branch's changes reached its change request. */
  | {
      type: 'pushed';
      branch: string;
      changeRequest: { number: number; url: string; opened: boolean } | undefined;
      pages: { inserted: number; updated: number; deleted: number };
      revision: string | undefined;
      /** Files left out of the push, and why (conflict markers, bad front matter, too large). */
      skipped: { path: string; reason: string }[];
      resumed: boolean;
    }
  /** Remote changes arrived in a branch. */
  | {
      type: 'pulled';
      branch: string;
      from: string;
      to: string;
      files: string[];
      created: boolean;
      closed: 'merged' | 'archived' | 'deleted' | undefined;
    }
  /** A comment or a reply arrived on a followed change request (or the space) since the last poll. */
  | ({ type: 'comment' } & ArrivedComment)
  /** A pull left conflict markers in these files. */
  | { type: 'conflict'; branch: string; files: string[] }
  /** A pull kept both sides of a delete against an edit (or ours of a binary file both changed), without markers. */
  | { type: 'kept'; branch: string; files: KeptFile[] }
  /** The checked-out branch changed under the daemon; it follows. */
  | { type: 'branch'; from: string | null; to: string | null }
  /** A push was refused (pull first, mass delete, unreadable page tree, ...); tried again once the branch changes. */
  | { type: 'refused'; branch: string; code: SyncErrorCode; message: string; details: string[] }
  /** The server cannot be reached: local saves go on being committed, the push waits. */
  | { type: 'offline'; message: string; failures: number; retryInMs: number }
  | { type: 'online'; afterMs: number }
  /** How platform edits are noticed now: the server's event stream, or polling (no stream offered, or it was lost). */
  | { type: 'remote'; mode: 'events' | 'polling'; reason?: string }
  /** Commits wait: a merge or rebase is in progress, or HEAD is detached. */
  | { type: 'paused'; reason: string }
  | { type: 'resumed' }
  /** Something unexpected failed; the daemon goes on and tries again later. */
  | { type: 'error'; message: string }
  | { type: 'stopped'; reason: string };

export type DaemonActivity = 'starting' | 'idle' | 'committing' | 'pulling' | 'pushing' | 'offline' | 'paused' | 'stopped';
