import type { TreeReusableContent } from '../../model/index.js';
import { includeNames } from '../tree/include-names.js';
import { pick } from './three-way.js';
import { mergeDocuments, type DocumentStore } from './document-store.js';
import type { TreeConflict } from './merge-tree.js';

const FIELDS = ['title', 'name'] as const;

/**
 * One reusable content kept by both sides: field by field (title, file name), the body line by
 * line as a page's document is merged. Undefined with a conflict naming the fields both sides
 * changed differently.
 */
export function mergeReusableContent(
  b: TreeReusableContent,
  o: TreeReusableContent,
  t: TreeReusableContent,
  docs: DocumentStore,
  conflicts: TreeConflict[],
): TreeReusableContent | undefined {
  const merged: TreeReusableContent = { id: o.id, title: o.title };
  const bad: string[] = [];
  for (const key of FIELDS) {
    const result = pick(b[key], o[key], t[key]);
    if (result === 'conflict') bad.push(key);
    else if (result.value !== undefined) merged[key] = result.value;
  }
  let document = pick(b.document, o.document, t.document);
  if (document === 'conflict') {
    const text = mergeDocuments(docs, b.document, o.document, t.document);
    if (text.kind === 'conflict') bad.push('document');
    else document = { value: text.text === '' ? undefined : docs.write(text.text) };
  }
  if (bad.length > 0) {
    conflicts.push({ reason: 'reusable-content', id: o.id, title: o.title, fields: bad });
    return undefined;
  }
  if (document !== 'conflict' && document.value !== undefined) merged.document = document.value;
  return merged;
}

/** File names two or more of `contents` hold. */
function sharedNames(contents: readonly TreeReusableContent[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const name of includeNames(contents)) (seen.has(name) ? shared : seen).add(name);
  return shared;
}

/**
 * Pages embed a reusable content by its file, so a merge must not give two contents one file
 * (each side added its own `note.md`): every content new to the base on such a name is a
 * conflict. Names a side already shared are left alone.
 */
export function includeNameClashes(
  base: readonly TreeReusableContent[],
  ours: readonly TreeReusableContent[],
  theirs: readonly TreeReusableContent[],
  merged: readonly TreeReusableContent[],
  conflicts: TreeConflict[],
): void {
  const before = new Set([...sharedNames(ours), ...sharedNames(theirs)]);
  const names = includeNames(merged);
  const clashing = new Set([...sharedNames(merged)].filter((name) => !before.has(name)));
  if (clashing.size === 0) return;
  const inBase = new Set(base.map((c) => c.id));
  merged.forEach((content, i) => {
    if (clashing.has(names[i]!) && !inBase.has(content.id))
      conflicts.push({ reason: 'duplicate-include-name', id: content.id, title: names[i]! });
  });
}
