import { lstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Ignore } from 'ignore';
import { ApiError, ConnectionError, type Client } from '../client/index.js';
import { assertNever } from '../model/index.js';
import {
  branchOid,
  commitWorkingTree,
  configuredAuthor,
  currentBranch,
  gitOperationInProgress,
  isGitError,
  workingTreeChanges,
  workingTreeChangesAt,
} from '../git/index.js';
import {
  DOCSYNC_AUTHOR,
  readState,
  arrivedComments,
  branchesToPush,
  isPushRefusal,
  isSyncError,
  newCommentFeed,
  finishPull,
  pull,
  push,
  skippedPlace,
  type BranchPull,
} from '../sync/index.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { Debouncer } from './debounce.js';
import { fileList } from './file-list.js';
import type { DaemonActivity, DaemonEvent } from './events.js';
import { ensureEditorExcludes } from './excludes.js';
import { isIgnoredPath, loadIgnoreRules } from './ignore-rules.js';
import { acquireDaemonLock, type DaemonLock } from './lock.js';
import { writeDaemonStatus, type DaemonStatus } from './status-file.js';
import { withWorkspaceLock } from './workspace-lock.js';
import { followRemoteEvents, type RemoteEvents } from './remote-events.js';
import {
  initialState,
  isCyclePhase,
  step,
  writeSettlesInMs,
  type SchedulerAction,
  type SchedulerEvent,
  type SchedulerOptions,
  type SchedulerState,
  type TimerName,
} from './scheduler/scheduler.js';

type CyclePhase = Extract<SchedulerAction, { type: 'begin-cycle' | 'commit' | 'sync' | 'end-cycle' }>;

export interface DaemonOptions {
  client: Client;
  /** The workspace (a docsync clone). */
  dir: string;
  /** Quiet time after the last file event before the burst is committed. @default 300 */
  debounceMs?: number;
  /** How often the remote heads are compared with the last sync. @default 10000 */
  pollMs?: number;
  /** How often `.git/HEAD` is read to notice a branch switch that changed no file. @default 1000 */
  headCheckMs?: number;
  backoff?: BackoffPolicy;
  /** Report comments and replies posted on the followed change requests (and the space) at each poll. @default true */
  comments?: boolean;
  onEvent?: (event: DaemonEvent) => void;
  /** Hears each event the scheduler is fed and the actions it answers (tests wait on these instead of sleeping). */
  onSchedule?: (event: SchedulerEvent, actions: readonly SchedulerAction[]) => void;
}

export interface Daemon {
  /** Finishes the cycle in flight, writes state, releases the lock. */
  stop(reason?: string): Promise<void>;
  /** Settles when the daemon has stopped, asked to or on its own (see `failure`). */
  readonly stopped: Promise<void>;
  /** Why the daemon stopped on its own: its workspace (folder, repository or state) is gone. */
  readonly failure: Error | undefined;
}

/** A file's lstat, or undefined when it is gone (deleted or replaced meanwhile). */
const lstatOrNull = (path: string) => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/** The workspace folder, its repository or its sync state was removed: nothing left to watch. */
function isWorkspaceGone(error: unknown): boolean {
  return isGitError(error, 'not-a-repo') || isSyncError(error, 'not-a-workspace', 'not-published');
}

/** Server failures that mean "not now" rather than "never": the daemon waits and tries again. */
function isOutage(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

/**
 * Starts the daemon on a workspace: file events, debounced, become commits on the checked-out
 * branch and pushes to its change request; every `pollMs` the remote heads are compared and what
 * moved is pulled. One cycle runs at a time, so a commit, a pull and a push never interleave.
 * While the server is away, saves are still committed and the network part waits with backoff.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const dir = resolve(options.dir);
  const lock = await acquireDaemonLock(dir);
  try {
    return await runDaemon(dir, lock, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function runDaemon(dir: string, lock: DaemonLock, options: DaemonOptions): Promise<Daemon> {
  const { client } = options;
  const debounceMs = options.debounceMs ?? 300;
  const pollMs = options.pollMs ?? 10_000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  await ensureEditorExcludes(dir);
  let rules: Ignore = await loadIgnoreRules(dir);

  const status: DaemonStatus = {
    pid: process.pid,
    startedAt: lock.holder.startedAt,
    updatedAt: lock.holder.startedAt,
    activity: 'starting',
    branch: await currentBranch(dir),
    pendingFiles: 0,
    unpushed: [],
    cycles: 0,
  };
  let statusWrite = Promise.resolve();
  const saveStatus = () => {
    status.updatedAt = new Date().toISOString();
    const snapshot = structuredClone(status);
    statusWrite = statusWrite.then(() => writeDaemonStatus(dir, snapshot)).catch(() => undefined);
  };
  const setActivity = (activity: DaemonActivity) => {
    if (status.activity === activity) return;
    status.activity = activity;
    saveStatus();
  };
  const emit = (event: DaemonEvent) => {
    const at = new Date().toISOString();
    if (event.type === 'committed') status.lastCommit = { at, branch: event.branch, files: event.files };
    if (event.type === 'pushed') status.lastPush = { at, branch: event.branch, changeRequest: event.changeRequest?.number };
    if (event.type === 'pulled') status.lastPull = { at, branch: event.branch, files: event.files.length };
    if (['conflict', 'refused', 'error', 'paused'].includes(event.type)) status.lastProblem = { at, event };
    saveStatus();
    options.onEvent?.(event);
  };

  /** The scheduler's state: every timing decision is `step`'s (scheduler/scheduler.ts); this loop performs them. */
  let sched: SchedulerState = initialState;
  const schedule: SchedulerOptions = { debounceMs, pollMs, headCheckMs: options.headCheckMs ?? 1_000, backoff };
  const timers = new Map<TimerName, NodeJS.Timeout>();
  let paused: string | undefined;
  let headText = await readFile(join(dir, '.git', 'HEAD'), 'utf8').catch(() => '');
  /** Branch heads whose push was refused: not tried again until the branch moves. */
  const refusedAt = new Map<string, string>();
  // Branches whose last push sent nothing (all left out), by the head it pushed.
  const idleAt = new Map<string, string>();
  /** Comments seen so far; the first poll only takes note of what is there. */
  const commentFeed = options.comments === false ? undefined : newCommentFeed();

  const debouncer = new Debouncer({
    quietMs: debounceMs,
    flush: (paths) => {
      status.pendingFiles = 0;
      // The workspace folder itself (or anything odd) comes as '' or '../…': the scheduler looks at everything.
      dispatch({ type: 'saves-settled', paths: paths.map((path) => relative(dir, path).split(sep).join('/')) });
    },
  });

  let running: Promise<void> | undefined;
  let failure: Error | undefined;
  /** The server's event stream, where offered (remote-events.ts); set once the watcher is ready. */
  let remote: RemoteEvents | undefined = undefined;

  /**
   * Feeds an event to the scheduler and performs what it asks for, except a cycle's next phase,
   * which goes back to the cycle in flight (`runCycles`).
   */
  function dispatch(event: SchedulerEvent): CyclePhase | undefined {
    const next = step(sched, event, schedule);
    sched = next.state;
    options.onSchedule?.(event, next.actions);
    let phase: CyclePhase | undefined;
    for (const action of next.actions) {
      // The cycle in flight asks for its next phase; any other event that starts a cycle starts the loop.
      if (isCyclePhase(action)) {
        if (action.type === 'begin-cycle' && event.type !== 'cycle-ended') running = runCycles();
        else phase = action;
      } else perform(action);
    }
    return phase;
  }

  function perform(action: Exclude<SchedulerAction, CyclePhase>): void {
    switch (action.type) {
      case 'set-timer': {
        clearTimeout(timers.get(action.timer));
        const timer = setTimeout(() => {
          timers.delete(action.timer);
          dispatch({ type: 'timer-fired', timer: action.timer, at: Date.now() });
        }, action.delayMs);
        // A file still being written does not keep the process alive on its own.
        if (action.timer === 'recheck') timer.unref();
        timers.set(action.timer, timer);
        break;
      }
      case 'clear-timer':
        clearTimeout(timers.get(action.timer));
        timers.delete(action.timer);
        break;
      case 'check-head':
        void readFile(join(dir, '.git', 'HEAD'), 'utf8').then(
          (text) => {
            if (text === headText) return;
            headText = text;
            dispatch({ type: 'head-moved' });
          },
          () => undefined,
        );
        break;
      case 'went-offline':
        status.offline = {
          since: new Date(action.since).toISOString(),
          failures: action.failures,
          nextTryAt: new Date(action.nextTryAt).toISOString(),
          message: action.message,
        };
        emit({ type: 'offline', message: action.message, failures: action.failures, retryInMs: action.retryInMs });
        break;
      case 'came-online':
        delete status.offline;
        emit({ type: 'online', afterMs: action.afterMs });
        break;
      default:
        assertNever(action, 'scheduler action');
    }
  }

  /** Runs cycles, one at a time, for as long as the scheduler asks for the next. */
  async function runCycles(): Promise<void> {
    // `running` must be set before the finally below clears it.
    await Promise.resolve();
    try {
      for (let again = true; again;) {
        // A command typed in another shell (push, merge, ...) and a cycle never overlap.
        await withWorkspaceLock(dir, cycle);
        // Counted for `docsync status` (and for tests, which wait for cycles instead of sleeping).
        status.cycles += 1;
        again = dispatch({ type: 'cycle-ended' })?.type === 'begin-cycle';
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: 'error', message });
      // The workspace gone: nothing left to watch, stop and say why. Else the sync lock was held too long by another process.
      if (isWorkspaceGone(error)) failure = error instanceof Error ? error : new Error(message);
      dispatch({ type: 'cycle-aborted', at: Date.now(), random: Math.random(), reason: failure ? 'gone' : 'busy' });
    } finally {
      running = undefined;
      remote?.poke();
      if (failure) setImmediate(() => void daemon.stop('the workspace is gone'));
      else if (!sched.stopping) {
        // Written even when the activity is the same: the count of cycles moved.
        status.activity = status.offline ? 'offline' : paused ? 'paused' : 'idle';
        saveStatus();
      }
    }
  }

  /** One cycle, under the workspace lock: its phases as the scheduler asks for them. */
  async function cycle(): Promise<void> {
    try {
      const branch = await currentBranch(dir);
      if (branch !== status.branch) {
        emit({ type: 'branch', from: status.branch, to: branch });
        status.branch = branch;
      }
      // A rebase stopped at a conflict detaches HEAD: it is named as the rebase it is.
      const busy = (await gitOperationInProgress(dir)) ?? (branch === null ? 'HEAD is detached (check out a branch to go on)' : undefined);
      if (busy !== undefined) {
        if (paused !== busy) emit({ type: 'paused', reason: busy });
        paused = busy;
      } else if (paused !== undefined) {
        paused = undefined;
        emit({ type: 'resumed' });
      }
      let phase = dispatch({ type: 'cycle-began', at: Date.now(), paused: busy !== undefined });
      while (phase !== undefined && phase.type !== 'end-cycle') {
        if (phase.type === 'commit') {
          const { held, recheckInMs } = await commitSaves(branch!, phase.paths);
          phase = dispatch({ type: 'committed', at: Date.now(), held, ...(recheckInMs !== undefined ? { recheckInMs } : {}) });
        } else if (phase.type === 'sync') {
          await syncWithRemote(phase.pull);
          phase = dispatch({ type: 'synced', at: Date.now() });
        } else {
          throw new Error(`a cycle cannot ${phase.type} while one is under way`);
        }
      }
    } catch (error) {
      if (isWorkspaceGone(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (!isOutage(error) && !isGitError(error, 'ref-moved')) emit({ type: 'error', message });
      dispatch({ type: 'cycle-failed', at: Date.now(), random: Math.random(), outage: isOutage(error), message });
    }
  }

  /** Commits the changes at `paths` (or anywhere); returns the files left for later, still being written, and when the first is due. */
  async function commitSaves(
    branch: string,
    paths: readonly string[] | 'all',
  ): Promise<{ held: string[]; recheckInMs: number | undefined }> {
    // A pull killed before the files held what it pulled: they are not saves to commit.
    await finishPull(dir);
    // A save looks at the paths it touched (O(change)); what an event missed, the next poll's whole walk finds.
    const found = (paths === 'all' ? null : await workingTreeChangesAt(dir, [...paths])) ?? (await workingTreeChanges(dir));
    const now = Date.now();
    const waits = new Map(
      found
        .filter((c) => c.status !== 'deleted')
        .map((c) => [c, writeSettlesInMs(lstatOrNull(join(dir, c.path)) ?? { mtimeMs: 0, size: 1 }, now, debounceMs)] as const)
        .filter(([, waitMs]) => waitMs > 0),
    );
    const held = new Set(waits.keys());
    const changes = found.filter((c) => !held.has(c));
    if (changes.length > 0) {
      setActivity('committing');
      const files = changes.map((c) => c.path);
      const commit = await commitWorkingTree(dir, {
        message: `docsync: save ${fileList(files)}\n\n${changes.map((c) => `${c.status}: ${c.path}`).join('\n')}\n`,
        // The walk just made: the commit does not walk the working tree again.
        changes,
        author: (await configuredAuthor(dir)) ?? DOCSYNC_AUTHOR,
      });
      if (commit !== null) emit({ type: 'committed', branch, commit, files });
    }
    return { held: [...held].map((c) => c.path), recheckInMs: held.size > 0 ? Math.ceil(Math.min(...waits.values())) + 10 : undefined };
  }

  async function syncWithRemote(poll: boolean): Promise<void> {
    const conflicted = new Set<string>();
    if (poll) {
      setActivity('pulling');
      reportPulls(await pull(client, dir), conflicted);
      if (commentFeed) for (const comment of await arrivedComments(client, dir, commentFeed)) emit({ type: 'comment', ...comment });
    }
    const toPush = await branchesToPush(dir);
    status.unpushed = toPush;
    for (const branch of toPush) {
      if (conflicted.has(branch) || sched.stopping) continue;
      const head = await branchOid(dir, branch);
      // Refused, or pushed with nothing sent (files left out, such as one with conflict markers):
      // not again, nor said again, until the branch moves.
      if (head !== null && (refusedAt.get(branch) === head || idleAt.get(branch) === head)) continue;
      setActivity('pushing');
      try {
        await pushBranch(branch);
      } catch (error) {
        if (!isSyncError(error, 'remote-ahead')) throw error;
        // Someone wrote on the platform since the last pull: bring it in, then push again.
        setActivity('pulling');
        const pulled = await pull(client, dir);
        reportPulls(pulled, conflicted);
        if (!conflicted.has(branch)) {
          setActivity('pushing');
          await pushBranch(branch);
        }
      }
    }
    // What is left after the pushes (refused, conflicted, or moved meanwhile); no second look when nothing was pushed.
    if (toPush.length > 0) status.unpushed = await branchesToPush(dir);
  }

  async function pushBranch(branch: string): Promise<void> {
    try {
      // The daemon's own commit messages start with `docsync:`, which push leaves out of a subject.
      const result = await push(client, dir, {
        branch,
        commitWorkingTree: false,
        defaultSubject: branch === 'main' ? 'Edits saved on main (docsync watch)' : `${branch} (docsync watch)`,
      });
      refusedAt.delete(branch);
      const head = await branchOid(dir, branch);
      if (result.changes.length === 0 && head !== null) idleAt.set(branch, head);
      else idleAt.delete(branch);
      emit({
        type: 'pushed',
        branch,
        revision: result.revision,
        resumed: result.resumed,
        changeRequest: result.changeRequest && {
          number: result.changeRequest.number,
          url: result.changeRequest.url,
          opened: result.changeRequest.opened,
        },
        pages: { inserted: result.counts.inserted, updated: result.counts.updated, deleted: result.counts.deleted },
        skipped: result.skipped.map((s) => ({ path: skippedPlace(s), reason: s.reason })),
      });
    } catch (error) {
      if (!isPushRefusal(error) || error.code === 'remote-ahead') throw error;
      const head = await branchOid(dir, branch);
      if (head !== null) refusedAt.set(branch, head);
      emit({ type: 'refused', branch, code: error.code, message: error.message, details: error.details });
    }
  }

  function reportPulls(pulled: BranchPull[], conflicted: Set<string>): void {
    for (const result of pulled) {
      if (result.from !== result.to || result.created || result.closed) {
        emit({
          type: 'pulled',
          branch: result.branch,
          from: result.from,
          to: result.to,
          files: result.changes.map((c) => c.path),
          created: result.created === true,
          closed: result.closed,
        });
      }
      if (result.kept !== undefined) emit({ type: 'kept', branch: result.branch, files: result.kept });
      if (result.conflicts.length > 0) {
        conflicted.add(result.branch);
        emit({ type: 'conflict', branch: result.branch, files: result.conflicts });
      }
    }
  }

  const isIgnored = (path: string, stats?: { isDirectory(): boolean }) => isIgnoredPath(rules, dir, path, stats?.isDirectory() ?? false);
  const watcher: FSWatcher = watch(dir, {
    ignored: isIgnored,
    ignoreInitial: true,
  });
  const onPath = (path: string) => {
    if (sched.stopping) return;
    if (path === join(dir, '.gitignore')) {
      void loadIgnoreRules(dir).then((next) => {
        rules = next;
      });
    }
    debouncer.touch(path);
    dispatch({ type: 'file-changed' });
    status.pendingFiles = debouncer.pending;
    // The first save of a burst shows in `docsync status`; the rest would only rewrite the file.
    if (debouncer.pending === 1) saveStatus();
  };
  for (const name of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) watcher.on(name, onPath);
  watcher.on('error', (error) =>
    emit({ type: 'error', message: `watching ${dir}: ${error instanceof Error ? error.message : String(error)}` }),
  );
  await new Promise<void>((ready) => watcher.once('ready', ready));

  // Platform edits arrive as events where the server streams them; polling is the fallback.
  const spaceId = await readState(dir).then(
    (state) => state.binding.spaceId,
    () => undefined,
  );
  remote =
    spaceId === undefined
      ? undefined
      : followRemoteEvents({
          client,
          stream: { spaceId },
          backoff,
          onConnected: () => {
            emit({ type: 'remote', mode: 'events' });
            dispatch({ type: 'stream-connected' });
          },
          onEvent: () => dispatch({ type: 'stream-event' }),
          onDisconnected: (reason) => {
            dispatch({ type: 'stream-lost' });
            emit({ type: 'remote', mode: 'polling', reason });
          },
        });

  emit({ type: 'started', dir, branch: status.branch, pid: process.pid, debounceMs, pollMs });
  // The poll timer, the HEAD check (a branch switch that changed no file gives no file event), the first cycle.
  dispatch({ type: 'start', at: Date.now() });

  let stopPromise: Promise<void> | undefined;
  let settle: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const daemon: Daemon = {
    stopped,
    get failure() {
      return failure;
    },
    stop(reason = 'stopped') {
      stopPromise ??= (async () => {
        dispatch({ type: 'stop' });
        debouncer.cancel();
        await running;
        await remote?.stop();
        await watcher.close();
        status.activity = 'stopped';
        emit({ type: 'stopped', reason });
        await statusWrite;
        await lock.release();
        settle();
      })();
      return stopPromise;
    },
  };
  return daemon;
}
