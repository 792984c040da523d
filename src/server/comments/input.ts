import { jsonDocumentToMarkdown } from '../../content/index.js';
import { MAX_COMMENT_MARKDOWN, badRequest, type CommentBodyInput } from '../../model/index.js';

/**
 * The markdown a posted body stores: `{markdown}` as given, `{document}` converted. A body
 * without text (`{}`, blank markdown, an empty document) is a 400: a comment says something.
 */
export function bodyMarkdown(body: CommentBodyInput, field = 'body'): string {
  if (body.markdown !== undefined && body.document !== undefined)
    throw badRequest(`${field} must have either markdown or document, not both`);
  const markdown = body.document !== undefined ? jsonDocumentToMarkdown(body.document) : body.markdown;
  if (markdown === undefined) throw badRequest(`${field} must have markdown (or a document): a comment cannot be empty`);
  if (markdown.trim() === '') throw badRequest(`${field}.${body.document !== undefined ? 'document' : 'markdown'} must not be empty`);
  if ([...markdown].length > MAX_COMMENT_MARKDOWN)
    throw badRequest(`${field} must be at most ${MAX_COMMENT_MARKDOWN} characters of markdown`);
  return markdown;
}

/**
 * A reaction as stored: the emoji characters. Hex code points (`1f44d`, `1f468-200d-1f4bb`, the
 * other form the emoji format allows) become the characters, so both spellings are one reaction.
 */
export function reactionEmoji(value: string, field: string): string {
  let emoji = value;
  if (/^[0-9a-fA-F]{4,6}(-[0-9a-fA-F]{4,6})*$/.test(value)) {
    const points = value.split('-').map((hex) => parseInt(hex, 16));
    emoji = points.every((p) => p <= 0x10ffff) ? String.fromCodePoint(...points) : '';
  }
  // The schema's emoji format also lets through bare digits, `#` and `*` (emoji components).
  if (!PICTOGRAPH.test(emoji)) throw badRequest(`${field}: "${value}" is not an emoji`);
  return emoji;
}

const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;
