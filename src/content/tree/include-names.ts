import type { TreeReusableContent } from '../../model/index.js';
import { slugify, uniqueSlug } from './slugs.js';

/** Folder of reusable contents in the Git Sync layout. */
export const INCLUDES_DIR = '.gitbook/includes';

/**
 * The file name in `.gitbook/includes/` of each reusable content, in order: its kept `name`,
 * else `slugify(title).md` made unique (`-2`, `-3`) against the kept names and those given
 * before it. The workspace names include files by the same rule, so a content stored without a
 * name is found where a folder written from it has it.
 */
export function includeNames(contents: readonly Pick<TreeReusableContent, 'title' | 'name'>[]): string[] {
  const taken = new Set(contents.flatMap((c) => (c.name === undefined ? [] : [c.name.replace(/\.md$/, '')])));
  return contents.map((content) => {
    if (content.name !== undefined) return content.name;
    const stem = uniqueSlug(slugify(content.title), taken);
    taken.add(stem);
    return `${stem}.md`;
  });
}

/** `slugify(title).md`, made unique against `names` (file names, `.md` included). */
export function newIncludeName(title: string, names: readonly string[]): string {
  return `${uniqueSlug(slugify(title), new Set(names.map((n) => n.replace(/\.md$/, ''))))}.md`;
}

/**
 * Why `name` cannot be an include's file name, or undefined: one path segment under
 * `.gitbook/includes/` ending in `.md`, as the Git Sync layout reads includes.
 */
export function includeNameProblem(name: string): string | undefined {
  if (!/\.md$/i.test(name) || name.length <= 3) return 'must be a file name ending in `.md`';
  if (name.includes('/') || name.includes('\\')) return 'must not contain `/` or `\\` (includes sit directly in `.gitbook/includes/`)';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters';
  return undefined;
}
