import { resolve } from 'node:path';
import { skippedPlace, syncPass } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { pullLine } from './conflict-report.js';
import { pushLines } from './push-report.js';
import { withWorkspace } from './sync-client.js';

/**
 * `docsync sync`: one pull-and-push pass for cron and CI. Exit 0 when clean, 3 when a pull left
 * conflicts, 5 when a branch's push was refused, 4 when files or links were left out.
 */
export async function syncCommand(options: OutputOptions & { dir?: string; dryRun?: boolean; allowMassDelete?: boolean }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  await withWorkspace(dir, async (client) => {
    const pass = await syncPass(client, dir, { dryRun: options.dryRun === true, allowMassDelete: options.allowMassDelete === true });
    const lines = [
      ...pass.pulled.map(pullLine),
      ...pass.pushed.flatMap(pushLines),
      ...pass.failed.flatMap((f) => [`${f.branch}: not pushed: ${f.message}`, ...f.details.map((d) => `  ${d}`)]),
    ];
    if (lines.length === 0) lines.push('nothing to pull or push');
    printResult(options, lines.join('\n'), pass);
    if (pass.conflicts.length > 0)
      throw new ExitError(`conflict markers in ${pass.conflicts.join(', ')}; resolve them and commit`, EXIT.conflict);
    if (pass.failed.length > 0) throw new ExitError(`not pushed: ${pass.failed.map((f) => f.branch).join(', ')}`, EXIT.refused);
    const skipped = pass.pushed.flatMap((p) => [
      ...p.skipped.map((s) => `${p.branch}:${skippedPlace(s)}`),
      ...p.unsentLinks.map((l) => `${p.branch}:${l.path}:${l.line} (link)`),
    ]);
    if (skipped.length > 0) throw new ExitError(`not sent: ${skipped.join(', ')}`, EXIT.partial);
  });
}
