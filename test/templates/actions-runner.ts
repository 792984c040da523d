import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitEnv, run, type Ran } from './docsync-bin.js';
import type { Workflow, WorkflowStep } from './templates.js';

/**
 * A stand-in for a GitHub-hosted runner, enough to run one job of the docsync workflow for real:
 * the `run:` steps in order, each as Actions runs it (`bash --noprofile --norc -eo pipefail`, in
 * the workspace, with the job's and step's `env`, `GITHUB_OUTPUT` and `RUNNER_TEMP`), stopping
 * at the first failing step. The two actions the job uses are done as they do it:
 * actions/checkout (a full clone of `origin`, `with.ref` checked out) and actions/setup-node
 * (node on PATH; this machine's node). Anything else it does not know throws, so the workflow
 * cannot grow a step this test would silently leave out.
 */
export interface RunnerOptions {
  workflow: Workflow;
  job: string;
  /** The repository, as a path or URL git can clone and push to. */
  origin: string;
  /** An empty folder: this run's machine (workspace, temp, home). */
  root: string;
  runId: number;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** Job `env` entries to replace (the test's stand-in for what the workflow installs). */
  override?: Record<string, string>;
  /** Folders prepended to PATH, as a tool cache would. */
  path?: string[];
  /** Extra variables for every step (npm's prefix, ...). */
  env?: Record<string, string>;
}

export interface StepRun extends Ran {
  name: string;
}

export interface JobRun {
  steps: StepRun[];
  outputs: Record<string, Record<string, string>>;
  workspace: string;
  /** True when every step ran and passed. */
  ok: boolean;
}

function evaluate(text: string, context: { secrets: Record<string, string>; vars: Record<string, string>; outputs: Record<string, Record<string, string>> }): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    let m: RegExpExecArray | null;
    if ((m = /^secrets\.(\w+)$/.exec(expression))) return context.secrets[m[1]!] ?? '';
    if ((m = /^vars\.(\w+)$/.exec(expression))) return context.vars[m[1]!] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression))) return context.outputs[m[1]!]?.[m[2]!] ?? '';
    throw new Error(`the stand-in runner does not evaluate \${{ ${expression} }}`);
  });
}

const stepName = (step: WorkflowStep) => step.name ?? step.uses ?? step.run!.split('\n')[0]!;

export async function runJob(options: RunnerOptions): Promise<JobRun> {
  const job = options.workflow.jobs[options.job];
  if (!job) throw new Error(`no job ${options.job}`);
  if (job['runs-on'] !== 'ubuntu-latest') throw new Error(`the stand-in runner is ubuntu-latest, not ${job['runs-on']}`);
  const workspace = join(options.root, 'workspace');
  const temp = join(options.root, 'runner-temp');
  const home = join(options.root, 'home');
  for (const dir of [temp, home]) await mkdir(dir, { recursive: true });
  const outputs: Record<string, Record<string, string>> = {};
  const context = { secrets: options.secrets, vars: options.vars, outputs };
  const path = [...(options.path ?? [])];
  const jobEnv = { ...job.env, ...options.override };
  const result: JobRun = { steps: [], outputs, workspace, ok: false };

  let index = 0;
  for (const step of job.steps) {
    index += 1;
    const unknown = Object.keys(step).filter((key) => !['name', 'id', 'uses', 'with', 'env', 'run'].includes(key));
    if (unknown.length > 0) throw new Error(`step ${stepName(step)}: the stand-in runner does not handle ${unknown.join(', ')}`);
    const env: Record<string, string> = {
      ...gitEnv(home),
      PATH: [...path, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_RUN_ID: String(options.runId),
      RUNNER_TEMP: temp,
      ...options.env,
      ...Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [k, evaluate(String(v), context)])),
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), context)])),
    };
    let ran: Ran;
    if (step.uses?.startsWith('actions/checkout@')) {
      const ref = String(step.with?.ref ?? '');
      if (step.with?.['fetch-depth'] !== 0 || ref === '') throw new Error('checkout: the workflow must ask for the full history of a named ref');
      ran = await run('git', ['clone', '--quiet', '--branch', ref, options.origin, workspace], { cwd: options.root, env });
    } else if (step.uses?.startsWith('actions/setup-node@')) {
      if (String(step.with?.['node-version']) !== '20') throw new Error('setup-node: the workflow must ask for node 20');
      path.unshift(dirname(process.execPath));
      ran = { code: process.version.startsWith('v20.') ? 0 : 1, stdout: process.version, stderr: '' };
    } else if (step.run !== undefined && step.uses === undefined) {
      const script = join(temp, `step-${index}.sh`);
      const output = join(temp, `output-${index}`);
      await writeFile(script, evaluate(step.run, context));
      await writeFile(output, '');
      ran = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env: { ...env, GITHUB_OUTPUT: output }, timeoutMs: 120_000 });
      if (step.id !== undefined) outputs[step.id] = parseOutputs(await readFile(output, 'utf8'));
    } else {
      throw new Error(`step ${stepName(step)}: the stand-in runner does not know it`);
    }
    result.steps.push({ name: stepName(step), ...ran });
    if (ran.code !== 0) return result;
  }
  result.ok = true;
  return result;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at < 0) throw new Error(`GITHUB_OUTPUT: the stand-in runner reads name=value lines only, got: ${line}`);
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

/** One line per step: its name, exit code and output, for a failure message. */
export const describeRun = (job: JobRun) => job.steps.map((s) => `## ${s.name}: exit ${s.code}\n${s.stdout}${s.stderr}`).join('\n');
