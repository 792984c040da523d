import { resolve } from 'node:path';
import { watchMirror, type MirrorWatchEvent } from '../../daemon/index.js';
import { mirror, type MirroredSpace } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import type { OutputOptions } from '../output.js';
import { pullLine } from './conflict-report.js';
import { pushLines } from './push-report.js';
import { clientFromLogin } from './sync-client.js';
import { asBackgroundGitProcess, handOver, holdSignals } from './watch.js';

export interface MirrorCommandOptions extends OutputOptions {
  org: string;
  push?: boolean;
  allowMassDelete?: boolean;
  watch?: boolean;
  /** Seconds between passes while the server streams no events (`--watch`). */
  poll?: string;
}

/** What a mirrored space's pass did, as lines (prefixed with its folder). */
function spaceLines(r: MirroredSpace): string {
  if (r.action === 'cloned') return `${r.folder}: cloned "${r.title}"`;
  if (r.action === 'failed') return `${r.folder}: FAILED: ${r.error}`;
  const lines = [
    ...r.pass!.pulled.filter((p) => p.from !== p.to || p.created).map(pullLine),
    ...r.pass!.pushed.flatMap(pushLines),
    ...r.pass!.failed.map((f) => `${f.branch}: not pushed: ${f.message}`),
  ];
  return lines.length === 0 ? `${r.folder}: up to date` : lines.map((l) => `${r.folder}: ${l}`).join('\n');
}

/** `docsync mirror --org ORG DIR`: every space of the organization in `DIR/<space-slug>/`; with `--watch`, kept so. */
export async function mirrorCommand(dir: string, options: MirrorCommandOptions): Promise<void> {
  if (options.watch) return mirrorWatchCommand(dir, options);
  if (options.poll !== undefined) throw new ExitError('--poll is for docsync mirror --watch', EXIT.usage);
  const { client, apiUrl } = await clientFromLogin();
  try {
    const results = await mirror({
      client,
      apiUrl,
      orgId: options.org,
      dir: resolve(dir),
      push: options.push === true,
      allowMassDelete: options.allowMassDelete === true,
      onSpace: options.json ? undefined : (r) => console.log(spaceLines(r)),
    });
    if (options.json) console.log(JSON.stringify(results));
    const failed = results.filter((r) => r.action === 'failed' || (r.pass?.failed.length ?? 0) > 0);
    const conflicts = results.flatMap((r) => (r.pass?.conflicts ?? []).map((c) => `${r.folder}/${c}`));
    if (conflicts.length > 0) throw new ExitError(`conflict markers in ${conflicts.join(', ')}`, EXIT.conflict);
    if (failed.length > 0) throw new ExitError(`not mirrored or not pushed: ${failed.map((r) => r.folder).join(', ')}`, EXIT.refused);
  } finally {
    await client.close();
  }
}

/** A `mirror --watch` event as a terminal line; undefined for what is not worth one. */
function watchLine(event: MirrorWatchEvent): string | undefined {
  switch (event.type) {
    case 'started':
      return `mirroring organization ${event.orgId} into ${event.dir} (pid ${event.pid}); Ctrl-C stops`;
    case 'remote':
      return event.mode === 'events'
        ? "following the organization's event stream"
        : `polling for changes${event.reason ? ` (${event.reason})` : ''}`;
    case 'space': {
      const { type: _type, ...result } = event;
      // A pass over every space says so for each; only what changed is worth a line.
      const line = spaceLines(result);
      return line.endsWith(': up to date') ? undefined : line;
    }
    case 'pass':
      return undefined;
    case 'error':
      return `error: ${event.message}`;
    case 'stopped':
      return `stopped (${event.reason})`;
  }
}

async function mirrorWatchCommand(dir: string, options: MirrorCommandOptions): Promise<void> {
  asBackgroundGitProcess();
  const seconds = Number(options.poll ?? 10);
  if (!Number.isFinite(seconds) || seconds < 0.1) throw new ExitError(`--poll must be a number >= 0.1, got "${options.poll}"`, EXIT.usage);
  // Signals held from here until runUntilSignal listens (handOver): one sent right after the
  // mirror starts stops it cleanly instead of killing it where it stands.
  const held = holdSignals();
  const { client, apiUrl } = await clientFromLogin();
  try {
    const watching = watchMirror({
      client,
      apiUrl,
      orgId: options.org,
      dir: resolve(dir),
      push: options.push === true,
      allowMassDelete: options.allowMassDelete === true,
      pollMs: seconds * 1000,
      onEvent: (event) => {
        if (options.json) {
          console.log(JSON.stringify({ at: new Date().toISOString(), ...event }));
          return;
        }
        const line = watchLine(event);
        if (line === undefined) return;
        const time = new Date().toTimeString().slice(0, 8);
        for (const part of line.split('\n')) console.log(`${time} ${part}`);
      },
    });
    await handOver(held, watching);
  } finally {
    held.release();
    await client.close();
  }
}
