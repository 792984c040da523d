import type { ContentChange } from '../model/index.js';

/**
 * Batch refs: an `insert_page` or an `insert_files` item may carry a `ref`, a name that other
 * changes of the same batch use in their documents as `./<ref>.md` (a page) or `./<ref>` (a
 * file). A ref means nothing outside its batch, so the batcher must know who defines and who uses
 * each one. Uses are found by scanning each document's text for `./<name>` tokens, the link form
 * the API resolves; a token that names no ref of the input is an ordinary relative link.
 */

/** `./name`, not `../name` or `a/./name`; the name ends where a link destination can end. */
const REF_TOKEN = /(?<![.\w/-])\.\/([^\s()<>"'#?[\]\\|`]+)/gu;

export type RefKind = 'page' | 'file';

/** Every ref the changes define, with the index of the change that defines it. */
export function refDefinitions(changes: readonly ContentChange[]): Map<string, { index: number; kind: RefKind }> {
  const refs = new Map<string, { index: number; kind: RefKind }>();
  changes.forEach((change, index) => {
    if (change.operation === 'insert_page' && change.ref !== undefined) refs.set(change.ref, { index, kind: 'page' });
    if (change.operation === 'insert_files') {
      for (const file of change.files) if (file.ref !== undefined) refs.set(file.ref, { index, kind: 'file' });
    }
  });
  return refs;
}

function documentText(change: ContentChange): string | undefined {
  if (change.operation !== 'insert_page' && change.operation !== 'update_page') return undefined;
  if (change.document === undefined) return undefined;
  return 'markdown' in change.document ? change.document.markdown : JSON.stringify(change.document);
}

/** The name a `./` token refers to when it is one of `refs`: `name.md` or `name` itself. */
function refOfToken(token: string, refs: ReadonlyMap<string, unknown>): string | undefined {
  if (refs.has(token)) return token;
  const bare = token.endsWith('.md') ? token.slice(0, -3) : undefined;
  return bare !== undefined && refs.has(bare) ? bare : undefined;
}

/** The refs (of `refs`) that a change's document links to. */
export function refUses(change: ContentChange, refs: ReadonlyMap<string, unknown>): Set<string> {
  const used = new Set<string>();
  const text = documentText(change);
  if (text === undefined || refs.size === 0) return used;
  for (const match of text.matchAll(REF_TOKEN)) {
    const ref = refOfToken(match[1]!, refs);
    if (ref !== undefined) used.add(ref);
  }
  return used;
}

/**
 * The change with its `./<ref>` links to already created pages and files replaced by the ids the
 * server gave them (`created_page` outcomes and `insertedFiles` of the `compat=false` answer):
 * `/pages/<id>` and `/files/<id>`, the forms the API resolves in any batch. For a later batch
 * whose refs were defined in an earlier one (see `planBatches`).
 */
export function rewriteRefs(change: ContentChange, created: ReadonlyMap<string, { kind: RefKind; id: string }>): ContentChange {
  if (change.operation !== 'insert_page' && change.operation !== 'update_page') return change;
  if (change.document === undefined || !('markdown' in change.document)) return change;
  const markdown = change.document.markdown.replace(REF_TOKEN, (whole, token: string) => {
    const ref = refOfToken(token, created);
    const target = ref === undefined ? undefined : created.get(ref);
    if (target === undefined) return whole;
    return target.kind === 'page' ? `/pages/${target.id}` : `/files/${target.id}`;
  });
  return { ...change, document: { markdown } };
}
