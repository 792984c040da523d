import type { PageMeta } from '../../model/index.js';
import { patchFrontMatter } from '../markdown/front-matter.js';
import { renderLayout } from '../markdown/page-layout.js';
import { isMapping, loadYaml, sameYaml } from '../markdown/yaml.js';

/** Page fields a platform edit can change and the front matter key GitBook writes each under. */
const KEYS = {
  description: 'description',
  icon: 'icon',
  emoji: 'emoji',
  condition: 'if',
  hidden: 'hidden',
  noIndex: 'noIndex',
  noRobotsIndex: 'noRobotsIndex',
  layout: 'layout',
  variables: 'vars',
} as const satisfies Partial<Record<keyof PageMeta, string>>;

const FLAGS = new Set<string>(['hidden', 'noIndex', 'noRobotsIndex']);

/**
 * A page's front matter as written (`yaml`) after an edit took its fields from `before` to
 * `after`: each changed field rewritten in place under its GitBook key (a flag turned off, or a
 * field cleared, removes its key; `false` stays where the writer wrote the key), every other
 * line kept byte for byte (a cover, kept in the stored markdown, follows the document: see
 * `patchExtraFrontMatter`). '' when nothing is left.
 */
/**
 * A page's front matter as written after a document replaced the keys the server keeps in the
 * stored markdown's own front matter (`cover`, `coverY`, `tags`, ...): each key whose value the
 * edit changed (from `before` to `after`, the old and new documents' front matter) is rewritten
 * in place, removed, or added at the end; every other line kept byte for byte. A cover changed
 * on the platform so reaches the front matter the platform keeps.
 */
export function patchExtraFrontMatter(yaml: string, before: Record<string, unknown>, after: Record<string, unknown>): string {
  const read = loadYaml(yaml);
  if (!read.ok || !isMapping(read.value ?? {})) return yaml;
  const was = (read.value ?? {}) as Record<string, unknown>;
  const want: Record<string, unknown> = { ...was };
  let changed = false;
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (sameYaml(before[key], after[key])) continue;
    changed = true;
    if (after[key] === undefined) delete want[key];
    else want[key] = after[key];
  }
  return changed ? patchFrontMatter(yaml, want, was) : yaml;
}

export function patchPageFrontMatter(yaml: string, before: PageMeta, after: PageMeta): string {
  const read = loadYaml(yaml);
  if (!read.ok || !isMapping(read.value ?? {})) return yaml;
  const was = (read.value ?? {}) as Record<string, unknown>;
  const want: Record<string, unknown> = { ...was };
  let changed = false;
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    const value = after[field];
    if (sameYaml(before[field], value)) continue;
    changed = true;
    if (FLAGS.has(field)) {
      if (value === true) want[key] = true;
      else if (key in was) want[key] = false;
      else delete want[key];
    } else if (field === 'layout') {
      const layout = after.layout === undefined ? undefined : renderLayout(after.layout);
      if (layout === undefined) delete want[key];
      else want[key] = layout;
    } else if (value === undefined || value === '' || (isMapping(value) && Object.keys(value).length === 0)) delete want[key];
    else want[key] = value;
  }
  return changed ? patchFrontMatter(yaml, want, was) : yaml;
}
