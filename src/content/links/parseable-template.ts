import { markdownToJsonDocument, type JsonContentRef, type JsonDocument } from '../markdown/json-document.js';
import type { StoredRef, TemplateParts } from './stored-ref.js';

/** A template as parseable markdown: each reference stands as a unique URL `refOf` maps back. */
export interface ParseableTemplate {
  text: string;
  refOf: (url: string) => StoredRef | undefined;
}

/**
 * Markdown parsers read a stored reference's NUL as text, so a template is parsed with each
 * reference replaced by a URL of a scheme no literal part of it contains (a writer's own URL can
 * therefore never be taken for a reference). What the parse finds (link nodes, headings) is the
 * same as in any rendering: only destinations differ.
 */
export function parseableTemplate(parts: TemplateParts): ParseableTemplate {
  if (parts.length === 1) return { text: parts[0] as string, refOf: () => undefined };
  let scheme = 'x-docsync-ref';
  while (parts.some((p) => typeof p === 'string' && p.includes(scheme))) scheme += '-x';
  const refs = new Map<string, StoredRef>();
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else {
      const url = `${scheme}:${refs.size}`;
      refs.set(url, part);
      text += url;
    }
  }
  return { text, refOf: (url) => refs.get(url) };
}

/** A stored reference as the published ContentRef of a JSON document's link. */
export function contentRefOf(ref: StoredRef): JsonContentRef {
  if (ref.kind === 'file') return { kind: 'file', file: ref.id };
  return ref.anchor === undefined ? { kind: 'page', page: ref.id } : { kind: 'anchor', anchor: ref.anchor, page: ref.id };
}

/** A stored document as the published JSON document: references stay references, by id. */
export function templateToJsonDocument(parts: TemplateParts): JsonDocument {
  const { text, refOf } = parseableTemplate(parts);
  return markdownToJsonDocument(text, (url) => {
    const ref = refOf(url);
    return ref === undefined ? undefined : contentRefOf(ref);
  });
}
