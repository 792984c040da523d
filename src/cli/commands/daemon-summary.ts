import { readDaemonLock, readDaemonStatus, type DaemonStatus, type LockHolder } from '../../daemon/index.js';

/** What `docsync status` says about the workspace's daemon, from its lock and status file alone. */
export interface DaemonSummary {
  running: boolean;
  pid?: number;
  host?: string;
  /** The daemon's own account (the last one it wrote, when it is not running). */
  status?: DaemonStatus;
}

export async function daemonSummary(dir: string): Promise<DaemonSummary> {
  const holder: LockHolder | undefined = await readDaemonLock(dir);
  const status = await readDaemonStatus(dir);
  if (holder) return { running: true, pid: holder.pid, host: holder.host, ...(status && status.pid === holder.pid ? { status } : {}) };
  return { running: false, ...(status ? { status } : {}) };
}

const clock = (iso: string) => new Date(iso).toTimeString().slice(0, 8);

/** One or two lines for people: is a daemon watching, what is it doing, what did it do last. */
export function daemonSummaryLines(summary: DaemonSummary): string[] {
  const s = summary.status;
  if (!summary.running) {
    if (s && s.activity !== 'stopped')
      return [`daemon: not running (pid ${s.pid} ended while ${s.activity}; docsync watch picks up where it left off)`];
    return [`daemon: not running${s ? ` (stopped at ${clock(s.updatedAt)})` : ''}`];
  }
  if (!s) return [`daemon: running (pid ${summary.pid} on ${summary.host}), starting`];
  const doing = s.offline
    ? `offline since ${clock(s.offline.since)} (${s.offline.failures} failed tries; next at ${clock(s.offline.nextTryAt)}): ${s.offline.message}`
    : `${s.activity}${s.branch ? ` on ${s.branch}` : ''}`;
  const lines = [`daemon: watching (pid ${s.pid} since ${clock(s.startedAt)}), ${doing}`];
  const last: string[] = [];
  if (s.pendingFiles > 0) last.push(`${s.pendingFiles} saved file(s) settling`);
  if (s.unpushed.length > 0) last.push(`not pushed yet: ${s.unpushed.join(', ')}`);
  if (s.lastCommit) last.push(`last commit ${clock(s.lastCommit.at)} on ${s.lastCommit.branch}`);
  if (s.lastPush)
    last.push(
      `last push ${clock(s.lastPush.at)} ${s.lastPush.branch}${s.lastPush.changeRequest !== undefined ? ` -> #${s.lastPush.changeRequest}` : ''}`,
    );
  if (s.lastPull) last.push(`last pull ${clock(s.lastPull.at)} ${s.lastPull.branch}`);
  if (s.lastProblem) last.push(`last problem ${clock(s.lastProblem.at)}: ${s.lastProblem.event.type}`);
  if (last.length > 0) lines.push(`  ${last.join('; ')}`);
  return lines;
}
