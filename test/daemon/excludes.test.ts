import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureEditorExcludes } from '../../src/daemon/excludes.js';
import { EDITOR_TEMP_PATTERNS, isIgnoredPath, loadIgnoreRules } from '../../src/daemon/ignore-rules.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

async function repository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-excludes-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

const excludePath = (dir: string) => join(dir, '.git', 'info', 'exclude');
const BLOCK = ['# docsync: editor temporary files (kept up to date by docsync watch)', ...EDITOR_TEMP_PATTERNS, '# docsync: end'].join(
  '\n',
);

describe('ensureEditorExcludes', () => {
  it('creates .git/info/exclude (and the folder) holding its block', async () => {
    const dir = await repository();
    await rm(join(dir, '.git', 'info'), { recursive: true, force: true });
    expect(await ensureEditorExcludes(dir)).toBe(true);
    expect(await readFile(excludePath(dir), 'utf8')).toBe(`${BLOCK}\n`);
  });

  it("appends its block after the user's own lines, which stay as they were", async () => {
    const dir = await repository();
    const mine = '# git ls-files --others --exclude-from=.git/info/exclude\n*.bak\nscratch/\n';
    await writeFile(excludePath(dir), mine);
    expect(await ensureEditorExcludes(dir)).toBe(true);
    expect(await readFile(excludePath(dir), 'utf8')).toBe(`${mine}${BLOCK}\n`);
  });

  it('starts its block on a line of its own when the file does not end with a newline', async () => {
    const dir = await repository();
    await writeFile(excludePath(dir), '*.bak');
    expect(await ensureEditorExcludes(dir)).toBe(true);
    expect(await readFile(excludePath(dir), 'utf8')).toBe(`*.bak\n${BLOCK}\n`);
  });

  it('replaces only its own block, an older one, and keeps the lines before and after it', async () => {
    const dir = await repository();
    const old = '# docsync: editor temporary files (kept up to date by docsync watch)\n*.swp\n#*#\n# docsync: end';
    await writeFile(excludePath(dir), `*.bak\n\n${old}\nscratch/\n# mine\n`);
    expect(await ensureEditorExcludes(dir)).toBe(true);
    expect(await readFile(excludePath(dir), 'utf8')).toBe(`*.bak\n\n${BLOCK}\nscratch/\n# mine\n`);
  });

  it('mends a block whose end line was deleted by hand, keeping the user lines after it', async () => {
    const dir = await repository();
    const [begin, ...rest] = BLOCK.split('\n');
    const patterns = rest.slice(0, -1);
    await writeFile(excludePath(dir), `mine-before\n${begin}\n${patterns.slice(0, 3).join('\n')}\nmine-after\n*.bak\n`);
    expect(await ensureEditorExcludes(dir)).toBe(true);
    expect(await readFile(excludePath(dir), 'utf8')).toBe(`mine-before\n${BLOCK}\nmine-after\n*.bak\n`);
    expect(await ensureEditorExcludes(dir)).toBe(false);
  });

  it('changes nothing the second time: returns false and leaves the file byte for byte', async () => {
    const dir = await repository();
    await writeFile(excludePath(dir), 'user line\r\n*.bak');
    expect(await ensureEditorExcludes(dir)).toBe(true);
    const once = await readFile(excludePath(dir));
    expect(await ensureEditorExcludes(dir)).toBe(false);
    expect(await ensureEditorExcludes(dir)).toBe(false);
    expect((await readFile(excludePath(dir))).equals(once)).toBe(true);
  });

  it('makes git itself leave editor temporary files out of status and commits, and agrees with the watcher', async () => {
    const dir = await repository();
    await ensureEditorExcludes(dir);
    const temporary = [
      '.page.md.swp',
      '.page.md.swo',
      '.page.md.swx',
      'page.md~',
      '.#page.md',
      '#page.md#',
      '4913',
      '.DS_Store',
      'page.md.docsync-tmp',
      '.~lock.report.odt#',
      'guides/.install.md.swp',
      'guides/#install.md#',
    ];
    await mkdir(join(dir, 'guides'));
    for (const path of ['page.md', 'guides/install.md', ...temporary]) await writeFile(join(dir, path), 'x\n');
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('?? guides/install.md\n?? page.md\n');
    git(dir, 'add', '--all');
    git(dir, 'commit', '-q', '-m', 'pages');
    expect(git(dir, 'ls-files').split('\n').filter(Boolean)).toEqual(['guides/install.md', 'page.md']);

    const rules = await loadIgnoreRules(dir);
    for (const path of temporary) expect(isIgnoredPath(rules, dir, join(dir, path), false), path).toBe(true);
  });
});
