import { writeFrontMatter as renderFrontMatter, readFrontMatter as splitFrontMatter } from '../content/index.js';

/**
 * A page file is its front matter, the title as a `# heading`, then the page markdown:
 *
 *   ---\n<front matter>---\n\n# <title>\n\n<markdown>
 *
 * (an empty page is `# <title>\n\n`, as GitBook writes it; its other forms are kept, see `afterHeading`).
 *
 * The title heading is left out when the markdown itself opens with a different `# heading`:
 * GitBook takes the title from SUMMARY.md and keeps such a heading as page content, so a file
 * whose heading differs from its SUMMARY.md title is written back as it was. `frontMatter` is
 * the data, or the block's YAML already written (the page's front matter as written, patched).
 * `titleHeading: false` writes no title heading before a markdown that opens with no heading.
 */
export function renderPageFile(
  frontMatter: Record<string, unknown> | string,
  title: string,
  markdown: string,
  titleHeading = true,
): string {
  const block = typeof frontMatter === 'string' ? (frontMatter === '' ? '' : `---\n${frontMatter}---\n`) : renderFrontMatter(frontMatter);
  const opening = headingOf(markdown);
  // A file written without its title heading (`titleHeading: false`) is written so again, while
  // its text does not open with that heading (which would then read as the title).
  const bare = !titleHeading && opening !== title && !isBlank(markdown);
  const text =
    bare || (opening !== undefined && opening !== title)
      ? markdown
      : isBlank(markdown)
        ? `# ${title}\n${afterHeading(markdown)}`
        : `# ${title}\n\n${markdown}`;
  return block === '' ? text : `${block}\n${text}`;
}

const isBlank = (text: string) => /^\s*$/.test(text);

/**
 * An empty page's blank lines after its title heading as written, from its markdown and back.
 * GitBook writes `# T\n\n` (markdown `""`, the canonical empty page) and also `# T\n` and
 * `# T\n\n\n\n`: the markdown of an empty page is the text after the heading's line, except
 * that GitBook's one blank line (`"\n"`) is `""` and nothing at all is `"\n"`, so every form
 * comes back as written and the canonical one stores no document.
 */
const afterHeading = (markdown: string) => (markdown === '' ? '\n' : markdown === '\n' ? '' : markdown);
const blankMarkdown = (rest: string) => (rest === '\n' ? '' : rest === '' ? '\n' : rest);

export type PageFileParse =
  | {
      ok: true;
      frontMatter: Record<string, unknown>;
      /** The front matter's YAML as written (between the `---` lines); undefined without a block. */
      yaml?: string;
      lines: Map<string, number>;
      markdown: string;
      /** False when the file has text but opens with no `# heading` at all: it was written without its title heading. */
      titleHeading: boolean;
    }
  | { ok: false; line: number; message: string };

/** Splits a page file into front matter and markdown, removing a title heading equal to `title`. */
export function parsePageFile(text: string, title: string): PageFileParse {
  const split = splitFrontMatter(text);
  if (!split.ok) return split;
  let body = split.value.body.replace(/^(?:[ \t]*\r?\n)+/, '');
  const opening = headingOf(body);
  if (opening === title) {
    const rest = body.replace(/^[^\n]*\n?/, '');
    body = isBlank(rest) ? blankMarkdown(rest) : rest.replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  const titleHeading = opening !== undefined || isBlank(body);
  const parsed: PageFileParse = { ok: true, frontMatter: split.value.data, lines: split.value.lines, markdown: body, titleHeading };
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
