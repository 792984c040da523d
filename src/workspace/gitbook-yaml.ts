import type { FolderSettings } from './types.js';
import { dumpYaml, isMapping, loadYaml } from '../content/index.js';

export const GITBOOK_YAML = '.gitbook.yaml';

type Settings = Omit<FolderSettings, 'summaryTitle'>;
export type GitbookYamlParse = { settings: Settings; errors: [number | undefined, string][] };

const isStringMap = (value: unknown): value is Record<string, string> =>
  isMapping(value) && Object.values(value).every((v) => typeof v === 'string');

/**
 * `.gitbook.yaml`: `root`, `structure.readme`, `structure.summary` and `redirects` (old path →
 * file). Other keys are kept as they are; a wrongly typed known key is an error and ignored.
 */
export function parseGitbookYaml(text: string): GitbookYamlParse {
  const settings: Settings = {};
  const errors: GitbookYamlParse['errors'] = [];
  const parsed = loadYaml(text);
  if (!parsed.ok)
    return { settings, errors: [[parsed.line === undefined ? undefined : parsed.line + 1, `not valid YAML: ${parsed.reason}`]] };
  if (parsed.value === null || parsed.value === undefined) return { settings, errors };
  if (!isMapping(parsed.value)) return { settings, errors: [[1, 'must be a YAML mapping']] };
  const lineOf = (key: string) => {
    const index = text.split('\n').findIndex((l) => l.startsWith(`${key}:`));
    return index < 0 ? undefined : index + 1;
  };
  for (const [key, value] of Object.entries(parsed.value)) {
    if (key === 'root' && typeof value === 'string') settings.root = value;
    else if (key === 'structure' && isStringMap(value) && Object.keys(value).every((k) => k === 'readme' || k === 'summary')) {
      settings.structure = value;
    } else if (key === 'redirects' && (isStringMap(value) || value === null)) settings.redirects = value ?? {};
    else if (key === 'root' || key === 'structure' || key === 'redirects') {
      errors.push([
        lineOf(key),
        `\`${key}\` has a wrong value (root: a path; structure: readme and summary paths; redirects: path → file)`,
      ]);
    } else (settings.extra ??= {})[key] = value;
  }
  return { settings, errors };
}

/**
 * `.gitbook.yaml` for the settings, one block per key (root, structure, redirects, others)
 * separated by a blank line as GitBook writes it; undefined when there is nothing to write.
 */
export function renderGitbookYaml(settings: FolderSettings): string | undefined {
  const blocks: string[] = [];
  if (settings.root !== undefined) blocks.push(dumpYaml({ root: settings.root }, false));
  if (settings.structure !== undefined) blocks.push(dumpYaml({ structure: settings.structure }, false));
  if (settings.redirects !== undefined) blocks.push(dumpYaml({ redirects: settings.redirects }, false));
  for (const [key, value] of Object.entries(settings.extra ?? {})) blocks.push(dumpYaml({ [key]: value }, false));
  return blocks.length === 0 ? undefined : blocks.join('\n');
}

/** The folder prefix `root` names: `./` → '', `./docs/` → `docs/`. */
export function rootPrefix(root: string | undefined): string {
  const parts = (root ?? '').split('/').filter((p) => p !== '' && p !== '.');
  return parts.length === 0 ? '' : `${parts.join('/')}/`;
}

/** A `structure` path relative to the root, without `./`. */
export function structurePath(path: string | undefined, fallback: string): string {
  const parts = (path ?? fallback).split('/').filter((p) => p !== '' && p !== '.');
  return parts.join('/') || fallback;
}
