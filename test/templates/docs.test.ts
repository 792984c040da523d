import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cronEntries } from './cron-line.js';
import { readTemplate } from './templates.js';

/** docs/service.md shows the templates as they are, so the page and the files cannot drift apart. */
describe('docs/service.md', () => {
  it('names each template and shows the cron line verbatim', async () => {
    const page = await readFile(new URL('../../docs/service.md', import.meta.url), 'utf8');
    for (const path of ['templates/systemd/docsync-watch.service', 'templates/cron/docsync-sync.cron', 'templates/ci/docsync-sync.yml']) expect(page).toContain(path);
    const [entry] = cronEntries(await readTemplate('cron'));
    expect(page).toContain(`\n${entry!.fields.join(' ')} ${entry!.command}\n`);
  });

  it('names the refs the CI workflow keeps in the repository', async () => {
    const page = await readFile(new URL('../../docs/service.md', import.meta.url), 'utf8');
    const workflow = await readTemplate('ci');
    for (const ref of ['refs/docsync/*', 'refs/docsync-ci/state']) {
      expect(workflow).toContain(ref);
      expect(page).toContain(ref);
    }
  });
});
