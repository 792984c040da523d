import { describe, expect, it } from 'vitest';
import { daemonLine } from '../../src/cli/commands/daemon-lines.js';
import type { DaemonEvent } from '../../src/daemon/index.js';

const names = (count: number, prefix = 'page') => Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}.md`);
const sha = '0123456789abcdef0123456789abcdef01234567';
const cr = { number: 7, url: 'http://docs.test/s/abc/~/changes/7', opened: false };
const pages = { inserted: 1, updated: 2, deleted: 0 };

/**
 * Every event type with the line it gives. Typed by event type, so that a new type of event
 * does not build until it has its lines here.
 */
const lines: { [T in DaemonEvent['type']]: [Extract<DaemonEvent, { type: T }>, string][] } = {
  started: [
    [
      { type: 'started', dir: '/w/docs', branch: 'main', pid: 42, debounceMs: 300, pollMs: 10_000 },
      'watching /w/docs on main (pid 42; saves settle for 300 ms, remote checked every 10 s)',
    ],
    [
      { type: 'started', dir: '/w/docs', branch: null, pid: 42, debounceMs: 100, pollMs: 500 },
      'watching /w/docs on (detached HEAD) (pid 42; saves settle for 100 ms, remote checked every 0.5 s)',
    ],
  ],
  committed: [
    [{ type: 'committed', branch: 'main', commit: sha, files: ['README.md'] }, 'main: committed README.md (0123456)'],
    [
      { type: 'committed', branch: 'fix', commit: sha, files: names(5) },
      'fix: committed page-01.md, page-02.md, page-03.md, page-04.md, page-05.md (0123456)',
    ],
    [
      { type: 'committed', branch: 'fix', commit: sha, files: names(6) },
      'fix: committed page-01.md, page-02.md, page-03.md, page-04.md, page-05.md and 1 more (0123456)',
    ],
    [
      { type: 'committed', branch: 'fix', commit: sha, files: names(240) },
      'fix: committed page-01.md, page-02.md, page-03.md, page-04.md, page-05.md and 235 more (0123456)',
    ],
  ],
  pushed: [
    [
      {
        type: 'pushed',
        branch: 'main',
        changeRequest: undefined,
        pages: { inserted: 0, updated: 0, deleted: 0 },
        revision: undefined,
        skipped: [{ path: 'SUMMARY.md:4', reason: 'gone.md is listed but the folder has no such file' }],
        resumed: false,
      },
      'main: nothing sent; left out SUMMARY.md:4 (gone.md is listed but the folder has no such file)',
    ],
    [
      { type: 'pushed', branch: 'fix', changeRequest: cr, pages, revision: 'r1', skipped: [], resumed: false },
      'fix: pushed to change request #7 http://docs.test/s/abc/~/changes/7: 1 added, 2 updated, 0 deleted',
    ],
    [
      { type: 'pushed', branch: 'fix', changeRequest: { ...cr, opened: true }, pages, revision: 'r1', skipped: [], resumed: false },
      'fix: pushed to change request #7 (opened) http://docs.test/s/abc/~/changes/7: 1 added, 2 updated, 0 deleted',
    ],
    [
      {
        type: 'pushed',
        branch: 'main',
        changeRequest: undefined,
        pages: { inserted: 0, updated: 0, deleted: 3 },
        revision: undefined,
        skipped: [],
        resumed: true,
      },
      'main: pushed to the space: 0 added, 0 updated, 3 deleted (finished an interrupted push)',
    ],
    [
      {
        type: 'pushed',
        branch: 'fix',
        changeRequest: cr,
        pages,
        revision: 'r1',
        resumed: false,
        skipped: [
          { path: 'a.md', reason: 'conflict markers' },
          { path: 'b.md', reason: 'front matter line 2: bad YAML' },
        ],
      },
      'fix: pushed to change request #7 http://docs.test/s/abc/~/changes/7: 1 added, 2 updated, 0 deleted; left out a.md (conflict markers), b.md (front matter line 2: bad YAML)',
    ],
  ],
  pulled: [
    [
      { type: 'pulled', branch: 'main', from: 'r1', to: 'r2', files: ['README.md', 'guide.md'], created: false, closed: undefined },
      'main: pulled README.md, guide.md',
    ],
    [
      { type: 'pulled', branch: 'main', from: 'r1', to: 'r2', files: names(9), created: false, closed: undefined },
      'main: pulled page-01.md, page-02.md, page-03.md, page-04.md, page-05.md and 4 more',
    ],
    [{ type: 'pulled', branch: 'main', from: 'r1', to: 'r2', files: [], created: false, closed: undefined }, 'main: pulled a new revision'],
    [
      { type: 'pulled', branch: 'cr-8', from: '', to: 'r2', files: ['a.md'], created: true, closed: undefined },
      'cr-8: new change request, branch created',
    ],
    [
      { type: 'pulled', branch: 'fix', from: 'r1', to: 'r2', files: [], created: false, closed: 'merged' },
      'fix: change request merged; no longer followed',
    ],
    [
      { type: 'pulled', branch: 'fix', from: 'r1', to: 'r2', files: ['a.md'], created: false, closed: 'archived' },
      'fix: change request archived; no longer followed',
    ],
    [
      { type: 'pulled', branch: 'fix', from: 'r1', to: 'r1', files: [], created: false, closed: 'deleted' },
      'fix: the git branch was deleted; no longer followed (docsync cr open fix makes it again)',
    ],
  ],
  comment: [
    [
      {
        type: 'comment',
        branch: 'fix',
        place: '#7',
        id: 'c1',
        path: 'guide/setup.md',
        line: 14,
        author: 'Ada',
        text: 'Is this step\nstill needed?\n',
      },
      'guide/setup.md:14: Ada: Is this step ⏎ still needed? [c1; commented on #7, branch fix]',
    ],
    [
      { type: 'comment', branch: 'main', place: 'space', id: 'r9', replyTo: 'c1', path: null, line: 1, author: 'Bo', text: 'Yes' },
      '(space): Bo: Yes [r9; replied to c1, branch main]',
    ],
  ],
  kept: [
    [
      { type: 'kept', branch: 'main', files: [{ path: 'beta.md', what: 'deleted-remotely' }] },
      'main:beta.md: deleted on the platform, edited here: your text is kept in beta.md, still listed in SUMMARY.md; the next push sends it as a new page (delete the file to agree with the deletion)',
    ],
    [
      {
        type: 'kept',
        branch: 'b',
        files: [
          { path: 'x.md', what: 'deleted-locally' },
          { path: 'i.png', what: 'binary-both-changed' },
        ],
      },
      "b:x.md: deleted here, edited on the platform: the platform's version is back in x.md and listed in SUMMARY.md; delete it again to delete the page\n" +
        "b:i.png: changed on both sides (not text): your version is kept; the platform's is in refs/docsync/remote/b",
    ],
  ],
  conflict: [
    [{ type: 'conflict', branch: 'main', files: ['a.md', 'b.md'] }, 'main: CONFLICT in a.md, b.md; resolve the markers and save'],
    [{ type: 'conflict', branch: 'main', files: names(20) }, `main: CONFLICT in ${names(20).join(', ')}; resolve the markers and save`],
    [
      { type: 'conflict', branch: 'main', files: names(23) },
      `main: CONFLICT in ${names(20).join(', ')} and 3 more; resolve the markers and save`,
    ],
  ],
  branch: [
    [{ type: 'branch', from: 'main', to: 'fix' }, 'now on fix (was main)'],
    [{ type: 'branch', from: 'fix', to: null }, 'now on (detached HEAD) (was fix)'],
    [{ type: 'branch', from: null, to: 'main' }, 'now on main (was (detached HEAD))'],
  ],
  refused: [
    [
      { type: 'refused', branch: 'fix', code: 'mass-delete', message: 'the push would delete 9 of 10 pages', details: [] },
      'fix: not pushed: the push would delete 9 of 10 pages',
    ],
    [
      {
        type: 'refused',
        branch: 'fix',
        code: 'unreadable-tree',
        message: 'the page tree cannot be read',
        details: ['SUMMARY.md:3: no such file x.md', 'a.md:1: bad front matter'],
      },
      'fix: not pushed: the page tree cannot be read\n  SUMMARY.md:3: no such file x.md\n  a.md:1: bad front matter',
    ],
  ],
  offline: [
    [
      { type: 'offline', message: 'connect ECONNREFUSED 127.0.0.1:9', failures: 1, retryInMs: 1_000 },
      'server unreachable (connect ECONNREFUSED 127.0.0.1:9); saves are committed locally, next try in 1.0 s',
    ],
    [
      { type: 'offline', message: '503 Service Unavailable', failures: 9, retryInMs: 52_500 },
      'server unreachable (503 Service Unavailable); saves are committed locally, next try in 53 s',
    ],
  ],
  online: [
    [{ type: 'online', afterMs: 2_340 }, 'server reachable again after 2.3 s'],
    [{ type: 'online', afterMs: 125_000 }, 'server reachable again after 125 s'],
  ],
  remote: [
    [{ type: 'remote', mode: 'events' }, "following the platform's events: its edits arrive as they are made"],
    [{ type: 'remote', mode: 'polling', reason: 'connect ECONNREFUSED' }, 'polling the platform again (connect ECONNREFUSED)'],
  ],
  paused: [[{ type: 'paused', reason: 'a rebase is in progress' }, 'paused: a rebase is in progress']],
  resumed: [[{ type: 'resumed' }, 'resumed']],
  error: [[{ type: 'error', message: 'watching /w: EMFILE' }, 'error: watching /w: EMFILE']],
  stopped: [[{ type: 'stopped', reason: 'SIGTERM' }, 'stopped (SIGTERM)']],
};

describe('daemonLine', () => {
  const table = Object.entries(lines).flatMap(([type, cases]) =>
    cases.map(([event, line], i) => [`${type} #${i + 1}`, event, line] as const),
  );

  it.each(table)('%s', (_, event, line) => {
    expect(daemonLine(event)).toBe(line);
  });

  it('gives one line per event, except the details of a refused push and each kept file on lines of their own', () => {
    for (const [, event, line] of table) {
      const lines = event.type === 'refused' ? 1 + event.details.length : event.type === 'kept' ? event.files.length : 1;
      expect(daemonLine(event)!.split('\n')).toHaveLength(lines);
      expect(line.trim()).not.toBe('');
    }
  });
});
