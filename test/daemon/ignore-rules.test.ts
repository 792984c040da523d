import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EDITOR_TEMP_PATTERNS, isIgnoredPath, loadIgnoreRules } from '../../src/daemon/ignore-rules.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

/** A git repository in a temp folder, with `files` written (a path ending in / is a folder). */
async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-ignore-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith('/')) {
      await mkdir(join(dir, path), { recursive: true });
    } else {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
  }
  return dir;
}

/** The paths git itself ignores, of `paths` (which exist on disk). */
function gitIgnores(dir: string, paths: string[]): string[] {
  const result = spawnSync('git', ['check-ignore', '--stdin'], { cwd: dir, input: paths.join('\n'), encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1) throw new Error(result.stderr);
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('loadIgnoreRules and isIgnoredPath', () => {
  // path (a trailing / marks a folder) and whether it is left out.
  const cases: [string, boolean][] = [
    ['build/', true],
    ['build/out.js', true],
    ['build/keep.md', true], // git cannot re-include a file whose folder is excluded
    ['docs/build/', true],
    ['docs/build/page.md', true],
    ['sub/build', false], // `build/` names folders only
    ['a.log', true],
    ['docs/deep/b.log', true],
    ['important.log', false], // negated
    ['root-only.md', true],
    ['docs/root-only.md', false], // anchored at the root
    ['drafts/x/y/secret.md', true],
    ['drafts/x/y/public.md', false],
    ['local-notes.md', true], // from .git/info/exclude
    ['docs/local-notes.md', true],
    ['README.md', false],
    ['guides/install.md', false],
    ['guides/', false],
    ['.gitignore', false],
    ['.gitbook/assets/image.png', false],
  ];
  const gitignore = 'build/\n!build/keep.md\n*.log\n!important.log\n/root-only.md\ndrafts/**/secret.md\n';
  const exclude = '# local\nlocal-notes.md\n';

  it('leave out what .gitignore and .git/info/exclude leave out, as git itself does', async () => {
    const files = Object.fromEntries(cases.map(([path]) => [path, path.endsWith('/') ? '' : 'x\n']));
    const dir = await workspace({ ...files, '.gitignore': gitignore, '.git/info/exclude': exclude });
    const rules = await loadIgnoreRules(dir);

    const ours = cases.map(([path]) => [path, isIgnoredPath(rules, dir, join(dir, path), path.endsWith('/'))]);
    expect(ours).toEqual(cases);
    const byGit = new Set(
      gitIgnores(
        dir,
        cases.map(([path]) => path.replace(/\/$/, '')),
      ),
    );
    expect(cases.map(([path]) => [path, byGit.has(path.replace(/\/$/, ''))])).toEqual(cases);
  });

  it('always leave out .git: the folder, anything in it, and a .git file (worktree, submodule) at any depth', async () => {
    const dir = await workspace({ 'sub/.git': 'gitdir: ../.git/modules/sub\n' });
    const rules = await loadIgnoreRules(dir);
    for (const [path, isFolder] of [
      ['.git', true],
      ['.git', false],
      ['.git/HEAD', false],
      ['.git/objects/ab', true],
      ['.git/docsync/state.json', false],
      ['sub/.git', false],
    ] as const) {
      expect(isIgnoredPath(rules, dir, join(dir, path), isFolder), path).toBe(true);
    }
    expect(isIgnoredPath(rules, dir, join(dir, '.github/workflows/ci.yml'), false)).toBe(false);
    expect(isIgnoredPath(rules, dir, join(dir, '.gitbook'), true)).toBe(false);
  });

  it('leave out the temporary files of editors and of docsync, and not the pages beside them', async () => {
    const dir = await workspace({});
    const rules = await loadIgnoreRules(dir);
    const temporary = [
      '.page.md.swp',
      'guides/.install.md.swo',
      '.page.md.swx',
      'page.md~',
      '.#page.md',
      '#page.md#',
      'guides/#install.md#',
      '4913',
      'guides/4913',
      '.DS_Store',
      'guides/.DS_Store',
      'page.md.docsync-tmp',
      '.~lock.report.odt#',
    ];
    for (const path of temporary) expect(isIgnoredPath(rules, dir, join(dir, path), false), path).toBe(true);
    const pages = ['page.md', 'notes#1.md', '#hashtag.md', 'swp.md', '4913.md', 'guides/page.md', 'a~b.md'];
    for (const path of pages) expect(isIgnoredPath(rules, dir, join(dir, path), false), path).toBe(false);
  });

  it('have a pattern for every editor file name, each of them a pattern and not a comment', async () => {
    const rules = await loadIgnoreRules(await workspace({}));
    for (const pattern of EDITOR_TEMP_PATTERNS) {
      const sample = pattern.replace(/^\\/, '').replaceAll('*', 'page.md');
      expect(rules.ignores(sample), `${pattern} (${sample})`).toBe(true);
    }
  });

  it('never leave out the workspace itself or anything outside it', async () => {
    const dir = await workspace({ '.gitignore': '*\n' });
    const rules = await loadIgnoreRules(dir);
    expect(isIgnoredPath(rules, dir, join(dir, 'page.md'), false)).toBe(true);
    expect(isIgnoredPath(rules, dir, dir, true)).toBe(false);
    expect(isIgnoredPath(rules, dir, `${dir}/`, true)).toBe(false);
    expect(isIgnoredPath(rules, dir, dirname(dir), true)).toBe(false);
    expect(isIgnoredPath(rules, dir, join(dirname(dir), 'elsewhere', 'page.md'), false)).toBe(false);
    expect(isIgnoredPath(rules, dir, `${dir}-sibling/page.md`, false)).toBe(false);
    expect(isIgnoredPath(rules, dir, '/', true)).toBe(false);
  });

  it('work without a .gitignore and without .git/info/exclude', async () => {
    const dir = await workspace({});
    await rm(join(dir, '.git', 'info'), { recursive: true, force: true });
    const rules = await loadIgnoreRules(dir);
    expect(isIgnoredPath(rules, dir, join(dir, 'build', 'out.js'), false)).toBe(false);
    expect(isIgnoredPath(rules, dir, join(dir, 'page.md.swp'), false)).toBe(true);
  });

  it('are a snapshot: a changed .gitignore counts once the rules are loaded again', async () => {
    const dir = await workspace({ '.gitignore': 'drafts/\n' });
    const before = await loadIgnoreRules(dir);
    await writeFile(join(dir, '.gitignore'), 'published/\n');
    const after = await loadIgnoreRules(dir);
    expect(isIgnoredPath(before, dir, join(dir, 'drafts'), true)).toBe(true);
    expect(isIgnoredPath(after, dir, join(dir, 'drafts'), true)).toBe(false);
    expect(isIgnoredPath(after, dir, join(dir, 'published', 'page.md'), false)).toBe(true);
  });
});
