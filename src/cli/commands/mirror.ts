import { resolve } from 'node:path';
import { mirror } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import type { OutputOptions } from '../output.js';
import { pullLine } from './conflict-report.js';
import { pushLines } from './push-report.js';
import { clientFromLogin } from './sync-client.js';

/** `docsync mirror --org ORG DIR`: every space of the organization in `DIR/<space-slug>/`. */
export async function mirrorCommand(
  dir: string,
  options: OutputOptions & { org: string; push?: boolean; allowMassDelete?: boolean },
): Promise<void> {
  const { client, apiUrl } = await clientFromLogin();
  try {
    const results = await mirror({
      client,
      apiUrl,
      orgId: options.org,
      dir: resolve(dir),
      push: options.push === true,
      allowMassDelete: options.allowMassDelete === true,
      onSpace: options.json
        ? undefined
        : (r) => {
            if (r.action === 'cloned') console.log(`${r.folder}: cloned "${r.title}"`);
            else if (r.action === 'failed') console.log(`${r.folder}: FAILED: ${r.error}`);
            else {
              const lines = [
                ...r.pass!.pulled.filter((p) => p.from !== p.to || p.created).map(pullLine),
                ...r.pass!.pushed.flatMap(pushLines),
                ...r.pass!.failed.map((f) => `${f.branch}: not pushed: ${f.message}`),
              ];
              console.log(lines.length === 0 ? `${r.folder}: up to date` : lines.map((l) => `${r.folder}: ${l}`).join('\n'));
            }
          },
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
