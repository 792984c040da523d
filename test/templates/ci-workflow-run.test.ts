import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_TEST_MS } from '../helpers/patience.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeRequestWith, editMain, remoteMarkdown } from '../sync/fixture.js';
import { describeRun, runJob, type JobRun } from './actions-runner.js';
import { gitIn, writeDocsyncBin } from './docsync-bin.js';
import { readTemplate, readWorkflow, type Workflow } from './templates.js';

const WORKFLOW_PATH = '.github/workflows/docsync-sync.yml';

/**
 * The workflow's steps run for real, twice and then once more, each time on a new stand-in
 * runner (a fresh checkout, nothing kept on the machine) against one repository (`origin`, a
 * bare git repository) and one real server: the first run finds no state and clones the space;
 * the second finds the state the first pushed back and syncs both ways a change made on each
 * side in between; the third finds nothing to do and changes nothing; the fourth meets a
 * conflict, pushes back what it committed all the same, and fails. The install step runs
 * `npm install --global` too, of a stand-in package whose `docsync` runs this checkout's CLI.
 */
// Each run spawns git, npm and docsync a dozen times: minutes on a loaded 2-core machine at worst.
describe('templates/ci/docsync-sync.yml on a stand-in runner', { timeout: PROCESS_TEST_MS }, () => {
  let s: TestServer;
  let work: string;
  let origin: string;
  let workflow: Workflow;
  let spaceId: string;
  let ids: Map<string, string>;
  let packageDir: string;
  let runs = 0;

  const dev = () => join(work, 'dev');
  const git = (dir: string, ...args: string[]) => gitIn(dir, join(work, 'home'), ...args);
  const atOrigin = (...args: string[]) => git(origin, ...args);
  const runOnce = async (): Promise<JobRun> => {
    runs += 1;
    const root = join(work, `run-${runs}`);
    await mkdir(root);
    return runJob({
      workflow, job: 'sync', origin, root, runId: runs,
      secrets: { DOCSYNC_TOKEN: s.token, DOCSYNC_API_URL: s.url },
      vars: { DOCSYNC_SPACE: spaceId },
      override: { DOCSYNC_PACKAGE: packageDir },
      path: [join(root, 'npm-global', 'bin')],
      env: {
        npm_config_prefix: join(root, 'npm-global'), npm_config_cache: join(root, 'npm-cache'),
        npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false',
      },
    });
  };
  const step = (job: JobRun, name: string) => {
    const found = job.steps.find((st) => st.name === name);
    if (!found) throw new Error(`no step ${name}:\n${describeRun(job)}`);
    return found;
  };
  const originRefs = async () => (await atOrigin('for-each-ref', '--format=%(refname) %(objectname)')).trim().split('\n').sort();
  const originState = async () => JSON.parse(await atOrigin('show', 'refs/docsync-ci/state:state.json'));
  const openChangeRequests = async () => (await s.request('GET', `/v1/spaces/${spaceId}/change-requests?status=open`)).body.items as any[];

  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-ci-'));
    await mkdir(join(work, 'home'));
    workflow = await readWorkflow();

    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Handbook', empty: true } })).body;
    spaceId = space.id;
    ids = await editMain(s, spaceId, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\ntwo\nthree\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
    ]);

    // The repository as a user sets it up: main holds this workflow and nothing else.
    origin = join(work, 'origin.git');
    await mkdir(origin);
    await atOrigin('init', '--quiet', '--bare', '--initial-branch=main');
    await mkdir(join(dev(), '.github', 'workflows'), { recursive: true });
    await git(dev(), 'init', '--quiet', '--initial-branch=main');
    await writeFile(join(dev(), WORKFLOW_PATH), await readTemplate('ci'));
    await git(dev(), 'add', '.');
    await git(dev(), 'commit', '--quiet', '-m', 'docsync sync workflow');
    await git(dev(), 'remote', 'add', 'origin', origin);
    await git(dev(), 'push', '--quiet', 'origin', 'main');

    packageDir = join(work, 'docsync-package');
    await writeDocsyncBin(packageDir);
    await writeFile(join(packageDir, 'package.json'), JSON.stringify({ name: 'docsync', version: '0.1.0', bin: { docsync: 'docsync' } }));
  });
  afterAll(async () => {
    await s?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('first run: no state in the repository, so it clones the space into main and pushes back branches, refs and state', async () => {
    const draft = await changeRequestWith(s, spaceId, 'Draft', [{ operation: 'insert_page', title: 'Draft', document: { markdown: '# Draft\n\nsoon\n' } }]);
    const job = await runOnce();
    expect(job.ok, describeRun(job)).toBe(true);
    expect(job.steps.map((st) => st.name)).toEqual(workflow.jobs.sync!.steps.map((st) => st.name ?? st.uses));
    expect(job.outputs.sync).toEqual({ status: '0' });
    expect(step(job, 'Restore the sync state').stdout).toContain(`no sync state in this repository yet: cloning space ${spaceId}`);

    const files = (await atOrigin('ls-tree', '-r', '--name-only', 'main')).trim().split('\n');
    expect(files).toEqual(expect.arrayContaining([WORKFLOW_PATH, 'README.md', 'beta.md', 'SUMMARY.md']));
    expect(await atOrigin('show', 'main:README.md')).toBe('# Alpha\n\none\ntwo\nthree\n');
    // The open change request's branch.
    expect(await originRefs()).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^refs/heads/cr/${draft.number}-draft `))]));
    expect(await atOrigin('show', `cr/${draft.number}-draft:draft.md`)).toBe('# Draft\n\nsoon\n');
    const state = await originState();
    expect(state.binding).toEqual({ apiUrl: s.url, spaceId });
    expect(state.branches[`cr/${draft.number}-draft`].changeRequestId).toBe(draft.id);
    // The commit the state names travels with the repository.
    await atOrigin('cat-file', '-e', `${state.branches.main.syncedCommit}^{commit}`);
    expect((await openChangeRequests()).map((cr) => cr.id)).toEqual([draft.id]);
  });

  it('second run: restores that state, pulls a platform edit into main and sends a git edit to a change request', async () => {
    await editMain(s, spaceId, [{ operation: 'update_page', page: ids.get('a'), document: { markdown: '# Alpha\n\none\ntwo, edited on the platform\nthree\n' } }]);
    await git(dev(), 'pull', '--quiet', '--ff-only', 'origin', 'main');
    await writeFile(join(dev(), 'beta.md'), '# Beta\n\nbeta text, edited in git\n');
    await git(dev(), 'commit', '--quiet', '-am', 'Edit Beta in git');
    await git(dev(), 'push', '--quiet', 'origin', 'main');
    const review = await changeRequestWith(s, spaceId, 'Review', [{ operation: 'update_page', page: ids.get('b'), title: 'Beta reviewed' }]);

    const job = await runOnce();
    expect(job.ok, describeRun(job)).toBe(true);
    expect(job.outputs.sync).toEqual({ status: '0' });
    expect(step(job, 'Restore the sync state').stdout).toContain('restored the sync state: docsync state after run 1');

    expect(await atOrigin('show', 'main:README.md')).toBe('# Alpha\n\none\ntwo, edited on the platform\nthree\n');
    expect(await atOrigin('show', 'main:beta.md')).toBe('# Beta\n\nbeta text, edited in git\n');
    expect(await originRefs()).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^refs/heads/cr/${review.number}-review `))]));
    // main's own commits go to a change request of their own (its outbox).
    const open = (await openChangeRequests()).filter((cr) => !['Draft', 'Review'].includes(cr.subject));
    expect(open).toHaveLength(1);
    expect(await remoteMarkdown(s, spaceId, ids.get('b')!, open[0].id)).toContain('beta text, edited in git');

    const state = await originState();
    const space = (await s.request('GET', `/v1/spaces/${spaceId}`)).body;
    expect(state.branches.main.remoteRevision).toBe(space.revision);
    expect(state.branches.main.outbox.changeRequestId).toBe(open[0].id);
    for (const branch of [state.branches.main, state.branches.main.outbox]) await atOrigin('cat-file', '-e', `${branch.syncedCommit}^{commit}`);
    expect(await originRefs()).toEqual(expect.arrayContaining([expect.stringMatching(/^refs\/docsync\/remote\/main /)]));
  });

  it('third run: nothing changed on either side, so nothing is sent and the repository stays as it was', async () => {
    const before = await originRefs();
    const job = await runOnce();
    expect(job.ok, describeRun(job)).toBe(true);
    expect(job.outputs.sync).toEqual({ status: '0' });
    expect(step(job, 'Restore the sync state').stdout).toContain('restored the sync state: docsync state after run 2');
    expect(await originRefs()).toEqual(before);
    expect(await openChangeRequests()).toHaveLength(3);
  });

  it('fourth run: a conflict is pushed back as docsync committed it, and then the job fails with exit 3', async () => {
    await editMain(s, spaceId, [{ operation: 'update_page', page: ids.get('a'), document: { markdown: '# Alpha\n\none\ntwo, as the platform has it\nthree\n' } }]);
    await git(dev(), 'pull', '--quiet', '--ff-only', 'origin', 'main');
    await writeFile(join(dev(), 'README.md'), '# Alpha\n\none\ntwo, as git has it\nthree\n');
    await git(dev(), 'commit', '--quiet', '-am', 'Edit Alpha in git');
    await git(dev(), 'push', '--quiet', 'origin', 'main');

    const job = await runOnce();
    expect(job.ok).toBe(false);
    expect(job.outputs.sync).toEqual({ status: '3' });
    expect(job.steps.map((st) => st.code)).toEqual([0, 0, 0, 0, 0, 0, 3]);
    expect(job.steps.at(-1)!.stdout).toContain('::error::docsync sync exited 3');
    const readme = await atOrigin('show', 'main:README.md');
    expect(readme).toContain('<<<<<<<');
    expect(readme).toContain('two, as the platform has it');
    expect(await readFile(join(job.workspace, 'README.md'), 'utf8')).toBe(readme);
  });
});
