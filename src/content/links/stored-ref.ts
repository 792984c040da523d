/**
 * How a link to a page or file lives in a stored page document: as a reference by id, not as a
 * path, so moving or renaming the target never touches the documents linking to it. The stored
 * markdown is a template: each link destination naming a page or file is a token
 *
 *   NUL kind ":" id ["#" anchor] "@" last-known-path ["@d"] NUL
 *
 * (`@d`: a page link written as its folder, `../guides/`, rendered so while the page is a README)
 * (each part percent-encoded). NUL can mark references unambiguously because submitted markdown
 * never holds one: CommonMark replaces it with U+FFFD, and so do we before storing
 * (`withoutNul`). Templates never leave the store: every read renders them (`renderTemplate`).
 * The last known path (the target's Git Sync path, from the space root, when the link was
 * written) is what a broken reference renders as, so the writer still sees what was meant.
 */
export type StoredRef =
  { kind: 'page'; id: string; anchor?: string; folder?: true; path: string } | { kind: 'file'; id: string; path: string };

const NUL = '\u0000';

// Percent-encoding leaves `()!'*~` as they are; parentheses would end a link destination.
const encode = (text: string) => encodeURIComponent(text).replace(/[()!'*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function encodeStoredRef(ref: StoredRef): string {
  const anchor = ref.kind === 'page' && ref.anchor !== undefined ? `#${encode(ref.anchor)}` : '';
  const folder = ref.kind === 'page' && ref.folder ? '@d' : '';
  return `${NUL}${ref.kind}:${encode(ref.id)}${anchor}@${encode(ref.path)}${folder}${NUL}`;
}

const TOKEN = /^(page|file):([^#@]*)(?:#([^@]*))?@([^@]*)(@d)?$/s;

function decodeToken(body: string): StoredRef | undefined {
  const match = TOKEN.exec(body);
  if (!match) return undefined;
  try {
    const id = decodeURIComponent(match[2]!);
    const path = decodeURIComponent(match[4]!);
    if (match[1] === 'file') return { kind: 'file', id, path };
    const page: StoredRef =
      match[3] === undefined ? { kind: 'page', id, path } : { kind: 'page', id, anchor: decodeURIComponent(match[3]), path };
    if (match[5] !== undefined) page.folder = true;
    return page;
  } catch {
    return undefined;
  }
}

/** True when a stored document holds references (most documents hold none and render as stored). */
export const hasStoredRefs = (text: string): boolean => text.includes(NUL);

/** Submitted markdown as CommonMark reads it: NUL is U+FFFD, so a stored NUL is always ours. */
export const withoutNul = (text: string): string => (hasStoredRefs(text) ? text.replaceAll(NUL, '\uFFFD') : text);

/** A template cut into literal text (even indexes) and references (odd indexes). */
export type TemplateParts = readonly (string | StoredRef)[];

export function splitTemplate(template: string): TemplateParts {
  if (!hasStoredRefs(template)) return [template];
  const parts: (string | StoredRef)[] = [];
  let at = 0;
  for (;;) {
    const open = template.indexOf(NUL, at);
    const close = open < 0 ? -1 : template.indexOf(NUL, open + 1);
    const ref = close < 0 ? undefined : decodeToken(template.slice(open + 1, close));
    if (ref === undefined) {
      // Unreachable for templates we stored; kept as text rather than failing a read.
      parts.push(template.slice(at).replaceAll(NUL, ''));
      return parts;
    }
    parts.push(template.slice(at, open), ref);
    at = close + 1;
  }
}

/** The template with each reference replaced by `render(ref)`. */
export function renderTemplate(parts: TemplateParts, render: (ref: StoredRef) => string): string {
  if (parts.length === 1) return parts[0] as string;
  let out = '';
  for (const part of parts) out += typeof part === 'string' ? part : render(part);
  return out;
}
