import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFolder, readFolder, writeFolder, type FileMap, type ReadResult, type WorkspacePage } from '../../src/workspace/index.js';
import { corpusFolder } from '../helpers/corpus.js';

// A real folder exported by GitBook's Git Sync (DOCSYNC_CORPUS_DIR, see test/helpers/corpus.ts), read from a copy.
const CORPUS = corpusFolder('currents-readme');
let dir: string;
let files: FileMap;
let read: ReadResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docsync-corpus-'));
  await cp(CORPUS, dir, { recursive: true });
  files = await loadFolder(dir);
  read = readFolder(files);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const all = (pages: readonly WorkspacePage[]): WorkspacePage[] => pages.flatMap((p) => [p, ...(p.type === 'link' ? [] : all(p.pages))]);
const depth = (pages: readonly WorkspacePage[]): number => Math.max(0, ...pages.map((p) => 1 + (p.type === 'link' ? 0 : depth(p.pages))));
const byPath = (path: string) => read.pages.get(path)!;

/** The .md files the corpus has that SUMMARY.md does not list: not pages, reported, not written. */
const UNLISTED = [
  'ci-setup/aws-code-build.md',
  'ci-setup/azure-devops.md',
  'ci-setup/circleci.md',
  'ci-setup/github-actions.md',
  'ci-setup/gitlab.md',
  'ci-setup/jenkins-playwright.md',
  'ci-setup/jenkins.md',
  'guides/ci-optimization/re-run-only-failed-tests-orchestrated.md',
  'guides/coverage.md',
  'guides/pw-parallelization.md',
  'insights/currents-explorer/spec-files-explorer/README.md',
  'insights/currents-explorer/spec-files-explorer/spec-files-performance.md',
  'insights/currents-explorer/tests-explorer/README.md',
  'insights/currents-explorer/tests-explorer/executions-history-tests.md',
  'integration-with-cypress/cypress-cloud.md',
];

describe('the currents-readme corpus (a real GitBook Git Sync export)', () => {
  it('reads the tree SUMMARY.md gives: groups, link pages, nesting five deep', () => {
    const pages = all(read.content.pages);
    expect(read.content.pages.map((p) => `${p.type}:${p.title}`)).toEqual([
      'group:Getting Started',
      'group:AI',
      'group:Guides',
      'group:Dashboard',
      'group:Resources',
    ]);
    expect(read.content.pages.map((p) => (p.type === 'group' ? p.slug : ''))).toEqual([
      'getting-started',
      'ai',
      'guides',
      'dashboard',
      'resources',
    ]);
    expect(pages.filter((p) => p.type === 'document')).toHaveLength(197);
    expect(pages.filter((p) => p.type === 'link').map((p) => (p.type === 'link' ? p.href : ''))).toHaveLength(6);
    expect(depth(read.content.pages)).toBe(5);
    expect(read.content.settings.summaryTitle).toBe('Table of contents');
  });

  it('reads titles, slugs and front matter', () => {
    const first = byPath('README.md');
    expect(first).toMatchObject({ title: 'Overview', slug: 'overview', icon: 'house-window' });
    expect(first.description).toMatch(/^Currents is a cloud platform, dashboard and test orchestrator aimed to help SDET/);
    expect(first.markdown.startsWith('**Currents goes beyond test reports**')).toBe(true);
    expect(byPath('ai/agent-skill-playwright-best-practices.md')).toMatchObject({
      title: 'Agent Skill: Playwright Best Practices',
      linkTitle: 'Playwright Skill',
      icon: 'brain-circuit',
    });
    expect(byPath('resources/reporters/currents-playwright/README.md')).toMatchObject({
      title: '@currents/playwright',
      slug: 'currents-playwright',
    });
    // A SUMMARY.md title other than the file's heading: the heading stays page content.
    const troubleshooting = byPath('guides/troubleshooting-playwright.md');
    expect(troubleshooting.title).toBe('Troubleshooting');
    expect(troubleshooting.markdown.startsWith('# Troubleshooting Playwright\n')).toBe(true);
  });

  it('keeps hand-placed files where they are: a parent as parent.md beside its children', () => {
    const jira = byPath('resources/integrations/jira.md');
    expect(jira).toMatchObject({ slug: 'jira', path: 'resources/integrations/jira.md' });
    expect(jira.pages.map((p) => (p.type === 'document' ? p.slug : p.title))).toEqual(['setup', 'usage', 'custom-fields']);
    expect(byPath('resources/integrations/jira/setup.md').path).toBeUndefined();
    // Children listed beside their parent's file rather than in its folder.
    expect(byPath('guides/ci-optimization/playwright-orchestration-v1.md').path).toBe(
      'guides/ci-optimization/playwright-orchestration-v1.md',
    );
  });

  it('reads .gitbook.yaml and .gitbook/vars.yaml', () => {
    const { settings, variables } = read.content;
    expect(settings.root).toBe('./');
    expect(settings.structure).toBeUndefined();
    expect(Object.keys(settings.redirects!)).toHaveLength(79);
    expect(settings.redirects!['api/api-keys']).toBe('dashboard/administration/api-keys.md');
    expect(variables).toEqual({
      LATEST_NODE_VERSION: '24.x',
      LATEST_PW_IMAGE_VERSION: 'v1.60.0-noble',
      PW_IMAGE_ROUTE: 'mcr.microsoft.com/playwright',
    });
  });

  it('reports unlisted pages and missing assets with file and line, and nothing else', () => {
    const codes = new Set(read.problems.map((p) => p.code));
    expect(codes).toEqual(new Set(['not-in-summary', 'missing-asset']));
    expect(read.problems.filter((p) => p.code === 'not-in-summary').map((p) => p.file)).toEqual(UNLISTED);
    const missing = read.problems.filter((p) => p.code === 'missing-asset');
    expect(missing.length).toBeGreaterThan(300);
    expect(missing).toContainEqual({
      code: 'missing-asset',
      file: 'README.md',
      line: 17,
      message: '.gitbook/assets/huge-playwright.png is referenced but not in the folder',
    });
    expect(missing).toContainEqual({
      code: 'missing-asset',
      file: 'resources/integrations/jira.md',
      line: 6,
      message: '`cover` names .gitbook/assets/currents-jira.png, which is not in the folder',
    });
    expect(missing.every((p) => p.line !== undefined)).toBe(true);
  });

  it('writes the folder back byte for byte, except the normalisations docs/workspace-format.md lists', () => {
    const written = writeFolder(read.content);
    expect(written.problems).toEqual([]);
    const changed = [...written.files]
      .filter(([path, value]) => files.get(path) !== value)
      .map(([path]) => path)
      .sort();
    // A page file without a title heading stays so (`titleHeading: false`).
    const headingless = 'getting-started/ci-setup/github-actions/re-run-failed-only-tests-orchestrated-v2.md';
    // Empty pages keep their blank lines after the title (`# T\n`, `# T\n\n\n\n`: GitBook writes several forms).
    const emptyPages = [
      'dashboard/billing/README.md',
      'dashboard/spec-file-status/README.md',
      'getting-started/ci-setup/gitlab/README.md',
      'getting-started/other-frameworks/vitest/README.md',
      'getting-started/other-frameworks/vitest/ci-setup/README.md',
      'resources/integrations/README.md',
    ];
    // Front matter comes back as written (issue 14: kept in each page's `frontMatter`): nothing changes.
    expect(changed).toEqual([]);
    const text = (map: FileMap, path: string) => String(map.get(path));
    for (const path of [headingless, ...emptyPages]) expect(text(written.files, path)).toBe(text(files, path));
    expect(read.pages.get(headingless)?.titleHeading).toBe(false);
    // Unlisted files are not pages: they are kept as written (`gitFiles`), and written back so.
    expect([...files.keys()].filter((p) => !written.files.has(p))).toEqual([]);
    expect(read.content.gitFiles?.map((f) => f.path)).toEqual(UNLISTED);
    for (const path of UNLISTED) expect(text(written.files, path)).toBe(text(files, path));
  });

  it('reads its own output back to the same content', () => {
    const written = writeFolder(read.content);
    const again = readFolder(written.files, { index: read.index });
    expect(again.content).toEqual(read.content);
    expect(writeFolder(again.content).files).toEqual(written.files);
  });
});
