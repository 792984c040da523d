import { slugify, uniqueSlug, writeFrontMatter as renderFrontMatter, readFrontMatter as splitFrontMatter } from '../content/index.js';
import { INCLUDES } from './paths.js';
import type { WorkspaceInclude } from './types.js';

/** `.gitbook/includes/<name>.md`: front matter `title`, a blank line, the markdown. */
export function renderInclude(include: WorkspaceInclude): string {
  return `${renderFrontMatter({ title: include.title })}${include.markdown === '' ? '' : `\n${include.markdown}`}`;
}

export type IncludeParse = { ok: true; title: string; markdown: string } | { ok: false; line: number; message: string };

/** Reads an include file; a missing or non-string `title`, or other keys, are errors. */
export function parseInclude(text: string): IncludeParse {
  const split = splitFrontMatter(text);
  if (!split.ok) return split;
  const { data, body, lines } = split.value;
  if (typeof data.title !== 'string' || data.title.trim() === '')
    return { ok: false, line: lines.get('title') ?? 1, message: 'front matter `title` must be a non-empty string' };
  const other = Object.keys(data).find((k) => k !== 'title');
  if (other !== undefined)
    return { ok: false, line: lines.get(other) ?? 1, message: `front matter \`${other}\` is not read in an include (only \`title\`)` };
  return { ok: true, title: data.title, markdown: body.replace(/^(?:[ \t]*\r?\n)+/, '') };
}

/**
 * The file of each include, in order: its `path` when set, else `slugify(title).md` made
 * unique. Returns paths relative to the root.
 */
export function includePaths(includes: readonly WorkspaceInclude[]): string[] {
  const taken = new Set<string>(includes.flatMap((i) => (i.path === undefined ? [] : [i.path.replace(/\.md$/, '')])));
  return includes.map((include) => {
    if (include.path !== undefined) return INCLUDES + include.path;
    const name = uniqueSlug(slugify(include.title), taken);
    taken.add(name);
    return `${INCLUDES}${name}.md`;
  });
}
