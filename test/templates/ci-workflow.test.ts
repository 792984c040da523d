import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleProblems } from './cron-line.js';
import { docsyncCommands } from './shell-words.js';
import { readWorkflow, type Workflow } from './templates.js';

/** The workflow's shape: what GitHub reads before any step runs (the steps run in ci-workflow-run). */
describe('templates/ci/docsync-sync.yml', () => {
  let workflow: Workflow;
  const steps = () => workflow.jobs.sync!.steps;
  beforeAll(async () => {
    workflow = await readWorkflow();
  });

  it('is valid YAML with one job, on a schedule and by hand', () => {
    expect(Object.keys(workflow.jobs)).toEqual(['sync']);
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    const schedule = workflow.on.schedule as { cron: string }[];
    expect(schedule.length).toBeGreaterThan(0);
    for (const { cron } of schedule) expect(scheduleProblems(cron.trim().split(/\s+/)), cron).toEqual([]);
  });

  it('may push to the repository, one run at a time, never cancelling a run in progress', () => {
    expect(workflow.permissions).toEqual({ contents: 'write' });
    expect(workflow.concurrency).toEqual({ group: expect.any(String), 'cancel-in-progress': false });
    expect(workflow.jobs.sync!['timeout-minutes']).toBeGreaterThan(0);
  });

  it('checks out main with its history, on Node 20, and installs a pinned docsync', () => {
    const [checkout, node, install] = steps();
    expect(checkout).toMatchObject({ uses: 'actions/checkout@v4', with: { ref: 'main', 'fetch-depth': 0 } });
    expect(node).toMatchObject({ uses: 'actions/setup-node@v4', with: { 'node-version': 20 } });
    expect(install!.run!.trim()).toBe('npm install --global "$DOCSYNC_PACKAGE"');
    // The job holds a token: what it installs is an exact version, never "latest".
    expect(workflow.jobs.sync!.env!.DOCSYNC_PACKAGE).toMatch(/^docsync@\d+\.\d+\.\d+$/);
  });

  it('gives the secrets only to the steps that run docsync, and from secrets alone', () => {
    expect(JSON.stringify(workflow.jobs.sync!.env)).not.toContain('secrets.');
    for (const step of steps()) {
      const runsDocsync = step.run !== undefined && docsyncCommands(step.run).length > 0;
      if (step.env?.DOCSYNC_TOKEN !== undefined || runsDocsync) {
        expect(step.env, step.name).toMatchObject({ DOCSYNC_TOKEN: '${{ secrets.DOCSYNC_TOKEN }}', DOCSYNC_API_URL: '${{ secrets.DOCSYNC_API_URL }}' });
        expect(runsDocsync, step.name).toBe(true);
      }
    }
  });

  it('keeps the sync state in the repository: fetched before the pass, pushed back atomically after it', () => {
    const restore = steps().find((step) => step.name === 'Restore the sync state')!.run!;
    expect(restore).toContain("'+refs/docsync/*:refs/docsync/*' '+refs/docsync-ci/*:refs/docsync-ci/*'");
    const sync = steps().findIndex((step) => step.id === 'sync');
    const push = steps().findIndex((step) => step.run?.includes('git push --atomic origin'));
    expect(sync).toBeGreaterThan(steps().indexOf(steps().find((step) => step.name === 'Restore the sync state')!));
    expect(push).toBe(sync + 1);
    // Branches are never forced; docsync's own refs and the state may be.
    expect(steps()[push]!.run).toContain("git push --atomic origin 'refs/heads/*:refs/heads/*' '+refs/docsync/*:refs/docsync/*' '+refs/docsync-ci/*:refs/docsync-ci/*'");
    // The pass's exit code is kept, so a failed pass still pushes back, then fails the job.
    expect(steps()[sync]!.run).toContain('docsync sync --dir . || status=$?');
    expect(steps().at(-1)!.env).toEqual({ SYNC_STATUS: '${{ steps.sync.outputs.status }}' });
  });
});
