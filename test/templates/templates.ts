import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The templates as shipped: `templates/` of this checkout (package.json `files`). */
export const TEMPLATE = {
  systemd: fileURLToPath(new URL('../../templates/systemd/docsync-watch.service', import.meta.url)),
  cron: fileURLToPath(new URL('../../templates/cron/docsync-sync.cron', import.meta.url)),
  ci: fileURLToPath(new URL('../../templates/ci/docsync-sync.yml', import.meta.url)),
} as const;

export const readTemplate = (name: keyof typeof TEMPLATE) => readFile(TEMPLATE[name], 'utf8');

export interface WorkflowStep {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  run?: string;
  if?: unknown;
  shell?: string;
  'continue-on-error'?: unknown;
}

export interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, { 'runs-on': string; env?: Record<string, string>; steps: WorkflowStep[]; 'timeout-minutes'?: number }>;
}

/** The workflow, parsed strictly: YAML errors and duplicate keys throw. */
export async function readWorkflow(): Promise<Workflow> {
  return parse(await readTemplate('ci'), { strict: true, uniqueKeys: true }) as Workflow;
}

/** `key=value` lines of a systemd unit, by section (comments and blank lines dropped). */
export function unitEntries(text: string): { section: string; key: string; value: string }[] {
  let section = '';
  const entries: { section: string; key: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(trimmed);
    if (header) {
      section = header[1]!;
      continue;
    }
    const at = trimmed.indexOf('=');
    if (at < 0) throw new Error(`not a key=value line: ${line}`);
    entries.push({ section, key: trimmed.slice(0, at).trim(), value: trimmed.slice(at + 1).trim() });
  }
  return entries;
}
