import { writeFrontMatter as renderFrontMatter, readFrontMatter as splitFrontMatter } from '../content/index.js';

/**
 * A page file is its front matter, the title as a `# heading`, then the page markdown:
 *
 *   ---\n<front matter>---\n\n# <title>\n\n<markdown>
 *
 * (an empty page is `# <title>\n\n`, as GitBook writes it).
 *
 * The title heading is left out when the markdown itself opens with a different `# heading`:
 * GitBook takes the title from SUMMARY.md and keeps such a heading as page content, so a file
 * whose heading differs from its SUMMARY.md title is written back as it was. `frontMatter` is
 * the data, or the block's YAML already written (the page's front matter as written, patched).
 */
export function renderPageFile(frontMatter: Record<string, unknown> | string, title: string, markdown: string): string {
  const block = typeof frontMatter === 'string' ? (frontMatter === '' ? '' : `---\n${frontMatter}---\n`) : renderFrontMatter(frontMatter);
  const opening = headingOf(markdown);
  const text = opening !== undefined && opening !== title ? markdown : `# ${title}\n\n${markdown}`;
  return block === '' ? text : `${block}\n${text}`;
}

export type PageFileParse =
  | {
      ok: true;
      frontMatter: Record<string, unknown>;
      /** The front matter's YAML as written (between the `---` lines); undefined without a block. */
      yaml?: string;
      lines: Map<string, number>;
      markdown: string;
    }
  | { ok: false; line: number; message: string };

/** Splits a page file into front matter and markdown, removing a title heading equal to `title`. */
export function parsePageFile(text: string, title: string): PageFileParse {
  const split = splitFrontMatter(text);
  if (!split.ok) return split;
  let body = split.value.body.replace(/^(?:[ \t]*\r?\n)+/, '');
  if (headingOf(body) === title) body = body.replace(/^[^\n]*\n?/, '').replace(/^(?:[ \t]*\r?\n)+/, '');
  const parsed: PageFileParse = { ok: true, frontMatter: split.value.data, lines: split.value.lines, markdown: body };
  if (split.value.yaml !== undefined) parsed.yaml = split.value.yaml;
  return parsed;
}

/** The text of a first-level ATX heading on the first line, if there is one. */
export function headingOf(markdown: string): string | undefined {
  const match = /^# (.*?)[ \t]*(?:\r?\n|$)/.exec(markdown);
  return match?.[1];
}

/** The page markdown's own front matter (keys the API has no field for) and the rest. */
export function splitMarkdown(markdown: string): { extra: Record<string, unknown>; body: string } {
  const split = splitFrontMatter(markdown);
  return split.ok ? { extra: split.value.data, body: split.value.body } : { extra: {}, body: markdown };
}

/** The page markdown for extra front matter keys and a body: the inverse of `splitMarkdown`. */
export function joinMarkdown(extra: Record<string, unknown>, body: string): string {
  return renderFrontMatter(extra) + body;
}
