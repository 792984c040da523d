import { fileList, type DaemonEvent } from '../../daemon/index.js';
import { keptLine } from './conflict-report.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** One line for a person at a terminal, or undefined for events not worth a line. */
export function daemonLine(event: DaemonEvent): string | undefined {
  switch (event.type) {
    case 'started':
      return `watching ${event.dir} on ${event.branch ?? '(detached HEAD)'} (pid ${event.pid}; saves settle for ${event.debounceMs} ms, remote checked every ${seconds(event.pollMs)})`;
    case 'committed':
      return `${event.branch}: committed ${fileList(event.files)} (${event.commit.slice(0, 7)})`;
    case 'pushed': {
      const where = event.changeRequest
        ? `change request #${event.changeRequest.number}${event.changeRequest.opened ? ' (opened)' : ''} ${event.changeRequest.url}`
        : 'the space';
      const { inserted, updated, deleted } = event.pages;
      const skipped = event.skipped.length > 0 ? `; left out ${event.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')}` : '';
      // Everything left out: nothing went, and saying "pushed" would be wrong.
      if (inserted + updated + deleted === 0 && event.skipped.length > 0 && !event.resumed)
        return `${event.branch}: nothing sent${skipped}`;
      return `${event.branch}: pushed to ${where}: ${inserted} added, ${updated} updated, ${deleted} deleted${event.resumed ? ' (finished an interrupted push)' : ''}${skipped}`;
    }
    case 'pulled':
      if (event.closed === 'deleted')
        return `${event.branch}: the git branch was deleted; no longer followed (docsync cr open ${event.branch} makes it again)`;
      if (event.closed) return `${event.branch}: change request ${event.closed}; no longer followed`;
      if (event.created) return `${event.branch}: new change request, branch created`;
      return `${event.branch}: pulled ${event.files.length === 0 ? 'a new revision' : fileList(event.files)}`;
    case 'comment': {
      // `path:line: author: text`, as `docsync comments` prints it: editors jump to it.
      const where = event.path === null ? `(${event.place})` : `${event.path}:${event.line}`;
      const what = event.replyTo !== undefined ? `replied to ${event.replyTo}` : `commented on ${event.place}`;
      return `${where}: ${event.author}: ${event.text.trim().replace(/\s*\n\s*/g, ' ⏎ ')} [${event.id}; ${what}, branch ${event.branch}]`;
    }
    case 'conflict':
      return `${event.branch}: CONFLICT in ${fileList(event.files, 20)}; resolve the markers and save`;
    case 'kept':
      return event.files.map((k) => keptLine(event.branch, k)).join('\n');
    case 'branch':
      return `now on ${event.to ?? '(detached HEAD)'} (was ${event.from ?? '(detached HEAD)'})`;
    case 'refused':
      return [`${event.branch}: not pushed: ${event.message}`, ...event.details.map((d) => `  ${d}`)].join('\n');
    case 'offline':
      return `server unreachable (${event.message}); saves are committed locally, next try in ${seconds(event.retryInMs)}`;
    case 'online':
      return `server reachable again after ${seconds(event.afterMs)}`;
    case 'remote':
      return event.mode === 'events'
        ? "following the platform's events: its edits arrive as they are made"
        : `polling the platform again (${event.reason ?? 'no event stream'})`;
    case 'paused':
      return `paused: ${event.reason}`;
    case 'resumed':
      return 'resumed';
    case 'error':
      return `error: ${event.message}`;
    case 'stopped':
      return `stopped (${event.reason})`;
  }
}
