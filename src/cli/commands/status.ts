import { resolve } from 'node:path';
import { status, type BranchStatus } from '../../sync/index.js';
import type { OutputOptions } from '../output.js';
import { daemonSummary, daemonSummaryLines } from './daemon-summary.js';
import { clientForWorkspace } from './sync-client.js';

function branchLine(r: BranchStatus): string {
  const parts: string[] = [];
  if (r.committed.length > 0) parts.push(`${r.committed.length} committed file change(s) not pushed`);
  if (r.uncommitted.length > 0) parts.push(`${r.uncommitted.length} uncommitted file change(s)`);
  if (r.remoteAhead) parts.push(`remote moved ${r.remoteAhead.from} -> ${r.remoteAhead.to}: run docsync pull`);
  if (r.remoteStatus) parts.push(`change request is ${r.remoteStatus}`);
  if (r.outbox !== undefined) parts.push(`commits pushed to change request #${r.outbox}, not merged yet`);
  const state = parts.join('; ') || 'in sync';
  const comments = r.openComments ? `; ${r.openComments} open comment(s): docsync comments ${r.branch}` : '';
  return `${r.current ? '*' : ' '} ${r.branch}${r.changeRequest !== undefined ? ` (#${r.changeRequest})` : ''}: ${state}${comments}`;
}

/**
 * `docsync status`: whether a daemon watches the workspace and what it is doing (from local
 * files, so it shows even when the server is away), then per branch, local changes not pushed
 * and remote changes not pulled.
 */
export async function statusCommand(options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const daemon = await daemonSummary(dir);
  if (!options.json) for (const line of daemonSummaryLines(daemon)) console.log(line);
  const client = await clientForWorkspace(dir);
  try {
    const branches = await status(client, dir);
    if (options.json) {
      console.log(JSON.stringify({ daemon, branches }));
      return;
    }
    if (branches.length === 0) console.log('nothing tracked');
    for (const row of branches) console.log(branchLine(row));
  } finally {
    await client.close();
  }
}
