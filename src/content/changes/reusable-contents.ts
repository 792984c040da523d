import type { ChangeDocument, TreeReusableContent } from '../../model/index.js';
import { includeNameProblem, includeNames } from '../tree/include-names.js';
import { submittedMarkdown } from './document.js';
import type { BatchState } from './state.js';
import { fail } from './types.js';

/**
 * The body of a reusable content as stored: the markdown as sent (or rendered from its JSON),
 * without a BOM or leading blank lines, ending with a newline (trailing blank lines kept, as a
 * page's are); '' when only white space. Unlike a page's, nothing is taken out of it (front matter,
 * title heading); its links become references when the batch ends (render-links.ts,
 * `storeIncludeLinks`), and a link naming nothing stays as written, so an include file goes
 * through the server unchanged but for them.
 */
export function includeBody(document: ChangeDocument): string {
  const markdown = submittedMarkdown(document);
  if (markdown === undefined) return '';
  const body = markdown.replace(/^\uFEFF/, '').replace(/^(?:[ \t]*\r?\n)+/, '');
  if (body.trim() === '') return '';
  return body.endsWith('\n') ? body : `${body}\n`;
}

/** Stores a body for the batch's result and returns its sha, or undefined for an empty body. */
export function storeIncludeBody(state: BatchState, body: string): string | undefined {
  if (body === '') return undefined;
  const sha = state.ctx.hash(body);
  state.includeTexts.set(sha, body);
  return sha;
}

export function checkIncludeTitle(title: string): string {
  if (title.trim() === '') fail('title: must not be blank');
  return title;
}

/** A name free for `id` (409 when another reusable content has that file). */
export function checkIncludeName(contents: readonly TreeReusableContent[], name: string, id: string | undefined): void {
  const problem = includeNameProblem(name);
  if (problem) fail(`name: ${JSON.stringify(name)} ${problem}`);
  const names = includeNames(contents);
  const other = contents.findIndex((c, i) => c.id !== id && names[i] === name);
  if (other >= 0) fail(`name: ${JSON.stringify(name)} is already the file of reusable content ${contents[other]!.id}`, 409);
}

/**
 * Every content with its file name kept: once a batch writes the list, names derived from titles
 * (contents stored before names were kept) stop moving when another title or content changes.
 */
export function withKeptNames(contents: readonly TreeReusableContent[]): TreeReusableContent[] {
  const names = includeNames(contents);
  return contents.map((c, i) => (c.name === undefined ? { ...c, name: names[i]! } : c));
}

export function findReusableContent(state: BatchState, id: string): number {
  const at = state.tree.reusableContents.findIndex((c) => c.id === id);
  if (at < 0) fail(`reusableContent: reusable content ${id} not found`);
  return at;
}
