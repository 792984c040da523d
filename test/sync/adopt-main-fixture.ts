import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { pull } from '../../src/sync/pull/pull.js';
import { push } from '../../src/sync/push/push.js';
import type { TestServer } from '../helpers/server.js';
import { clonedSpace, editMain, git } from './fixture.js';

/** The three situations of adopt-main (src/sync/push/adopt-main.ts) the tests build. */
export type AdoptKind = 'clean' | 'conflict' | 'move';

/**
 * The situation in which `docsync push` runs adopt-main: a branch `topic` with its change
 * request, main edited on the platform since, pulled and merged into topic with git (committed,
 * not pushed yet). `clean`: main's edit meets nothing of topic's (the update goes through).
 * `conflict`: both changed Beta's text (the update conflicts until Beta goes back to the base,
 * then goes through). `move`: both also moved Beta, under different new pages (the update still
 * conflicts after the revert, which leaves a page where it is: Beta is given back and the push
 * stops with exit 3).
 */
export async function adoptMainScenario(s: TestServer, client: Client, work: string, name: string, kind: AdoptKind) {
  const t = await clonedSpace(s, client, work, name);
  git(t.dir, 'checkout', '-qb', 'topic');
  await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic text\n');
  if (kind === 'move') {
    await writeFile(join(t.dir, 'delta.md'), '# Delta\n\ndelta text\n');
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Delta](delta.md)\n  * [Beta](beta.md)\n');
    git(t.dir, 'add', '-A');
  }
  git(t.dir, 'commit', '-qam', 'topic');
  await push(client, t.dir);
  const gamma =
    kind === 'move'
      ? await editMain(s, t.spaceId, [
          { operation: 'insert_page', ref: 'g', title: 'Gamma', document: { markdown: '# Gamma\n\ngamma text\n' } },
        ])
      : undefined;
  await editMain(s, t.spaceId, [
    { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nmain line\n' } },
    ...(kind === 'clean'
      ? []
      : [
          {
            operation: 'update_page',
            page: t.beta,
            document: { markdown: '# Beta\n\nmain text\n' },
            ...(gamma ? { into: gamma.get('g'), at: 0 } : {}),
          },
        ]),
  ]);
  git(t.dir, 'checkout', '-q', 'main');
  await pull(client, t.dir);
  git(t.dir, 'checkout', '-q', 'topic');
  if (kind === 'clean') {
    git(t.dir, 'merge', '-q', '--no-edit', 'main');
    return t;
  }
  expect(() => git(t.dir, 'merge', '-q', 'main')).toThrow();
  await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic and main text\n');
  if (kind === 'move') {
    const summary = '# Table of contents\n\n* [Alpha](README.md)\n* [Delta](delta.md)\n  * [Beta](beta.md)\n* [Gamma](gamma/README.md)\n';
    await writeFile(join(t.dir, 'SUMMARY.md'), summary);
  }
  git(t.dir, 'commit', '-qam', 'merge main, resolved');
  return t;
}
