import { toString } from 'mdast-util-to-string';
import type { ChangeDocument, PageMeta } from '../../model/index.js';
import { parseMarkdown } from '../markdown/processor.js';
import { readFrontMatter, writeFrontMatter } from '../markdown/front-matter.js';
import { frontMatterMeta } from './front-matter-meta.js';
import { jsonDocumentToMarkdown } from './json-to-markdown.js';
import { jsonDepth, markdownNestingProblem, MAX_NESTING } from './limits.js';
import { fail } from './types.js';

export interface SubmittedDocument {
  /** The markdown to store, before link resolution; '' for an empty page. */
  body: string;
  /** Front matter `title`, else the leading `# heading` (removed from `body`). */
  title?: string;
  /** Metadata from front matter; overrides the operation's own fields. */
  meta: Partial<Omit<PageMeta, 'slug'>>;
  /** Front matter keys with no page field (`cover`, `tags`, ...), kept at the top of `body`. */
  extra?: Record<string, unknown>;
}

/**
 * The markdown of a submitted document, as sent or rendered from its JSON; undefined for `{}`.
 * Fails when it nests deeper than the parser can safely walk.
 */
export function submittedMarkdown(document: ChangeDocument): string | undefined {
  let markdown: string;
  if ('markdown' in document) markdown = document.markdown;
  else if ('document' in document) {
    // A JSON block sits three levels below its parent block (nodes, array, node).
    if (jsonDepth(document.document) > MAX_NESTING * 3) return fail(`document nests blocks more than ${MAX_NESTING} deep`);
    markdown = jsonDocumentToMarkdown(document.document);
  } else return undefined;
  const nesting = markdownNestingProblem(markdown);
  if (nesting) return fail(nesting);
  return markdown;
}

/**
 * Normalises a submitted document into what is stored: a JSON document becomes markdown; front
 * matter becomes metadata (keys the server does not model stay in a smaller front matter); a
 * leading `# heading` that gives the title is removed, since the title is rendered from the
 * metadata; leading blank lines go and the text ends with a newline (trailing blank lines kept);
 * a text of whitespace only is kept as sent, unless it followed the title heading.
 */
export function readSubmittedDocument(document: ChangeDocument): SubmittedDocument {
  const markdown = submittedMarkdown(document);
  if (markdown === undefined) return { body: '', meta: {} };

  const split = readFrontMatter(markdown.replace(/^\uFEFF/, ''));
  if (!split.ok) return fail(split.message);
  const fm = frontMatterMeta(split.value.data);
  if (typeof fm === 'string') return fail(fm);
  const { title: fmTitle, ...meta } = fm.meta;
  let body = split.value.body;
  let title = fmTitle;
  let headed = false;
  if (title === undefined) {
    const first = parseMarkdown(body).children[0];
    if (first?.type === 'heading' && first.depth === 1 && first.position?.end.offset !== undefined) {
      const text = toString(first).trim();
      if (text !== '') {
        title = text;
        headed = true;
        body = body.slice(first.position.end.offset);
      }
    }
  }
  // Trailing blank lines and spaces are kept as written (GitBook's exports have them), and a last
  // line gets its newline. A text that is only whitespace is kept as sent (the sync tool's form
  // of an empty Git Sync page's blank lines, docs/workspace-format.md), except what followed a
  // title heading (the end of its line): that page is empty.
  if (body.trim() === '') {
    if (headed) body = '';
  } else {
    body = body.replace(/^(?:[ \t]*\r?\n)+/, '');
    if (!body.endsWith('\n')) body += '\n';
  }
  body = `${writeFrontMatter(fm.rest)}${body}`;
  return title === undefined ? { body, meta, extra: fm.rest } : { body, title, meta, extra: fm.rest };
}
