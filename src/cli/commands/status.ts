import { resolve } from 'node:path';
import { status } from '../../sync/index.js';
import { printRows, type OutputOptions } from '../output.js';
import { clientForWorkspace } from './sync-client.js';

/** `docsync status`: per branch, local changes not pushed and remote changes not pulled. */
export async function statusCommand(options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const client = await clientForWorkspace(dir);
  try {
    const rows = await status(client, dir);
    printRows(options, rows, (r) => {
      const parts: string[] = [];
      if (r.committed.length > 0) parts.push(`${r.committed.length} committed file change(s) not pushed`);
      if (r.uncommitted.length > 0) parts.push(`${r.uncommitted.length} uncommitted file change(s)`);
      if (r.remoteAhead) parts.push(`remote moved ${r.remoteAhead.from} -> ${r.remoteAhead.to}: run docsync pull`);
      if (r.remoteStatus) parts.push(`change request is ${r.remoteStatus}`);
      if (r.outbox !== undefined) parts.push(`commits pushed to change request #${r.outbox}, not merged yet`);
      return `${r.current ? '*' : ' '} ${r.branch}${r.changeRequest !== undefined ? ` (#${r.changeRequest})` : ''}: ${parts.join('; ') || 'in sync'}`;
    }, 'nothing tracked');
  } finally {
    await client.close();
  }
}
