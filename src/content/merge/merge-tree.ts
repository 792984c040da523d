import {
  PAGE_META_KEYS,
  type ContentTree,
  type PageMeta,
  type TreeFile,
  type TreeGitFile,
  type TreePage,
  type TreeReusableContent,
  type VariableValue,
} from '../../model/index.js';
import { indexPages, type PagePlace } from '../tree/page-tree.js';
import { includeNameClashes, mergeReusableContent } from './merge-reusable-contents.js';
import { mergeDocuments, type DocumentStore } from './document-store.js';
import { mergeText } from './merge-text.js';
import { pick, same } from './three-way.js';

/**
 * Three-way merge of content trees: base, ours and theirs, pages matched by id.
 *
 * Invariants (property-tested in test/content/merge-tree.test.ts):
 * - merge(b, b, t) = t and merge(b, o, b) = o: an unchanged side takes the other side whole;
 * - when clean, merge(b, o, t) = merge(b, t, o): no side is favoured;
 * - every page of the result appears once, and every page that one side kept and the other
 *   did not delete is in the result;
 * - a conflict is data (`conflicts`), never an exception; with a conflict, no tree is given.
 *
 * What combines: inserts, deletes, moves, renames and metadata changes from both sides, field
 * by field; a document edited on both sides is merged line by line. What conflicts: the same
 * field changed differently, lines changed differently, an edit against a delete, moves of
 * one page to different parents, a child placed into a page the other side deleted, moves
 * that together make a cycle, and two pages with one slug under one parent. Files and variables
 * merge three-way by id and by name, a file replaced (same id, new bytes) or deleted on one side
 * taking that side's state; two files of one name made by the merge are a conflict. Reusable
 * contents merge by id, field by field, their bodies line by line as documents are; two of them
 * given one include file by the merge are a conflict. Folder files (`gitFiles`) merge by path:
 * a file one side changed, added or removed takes that side; texts both sides changed merge line
 * by line as documents do; lines changed differently, or an edit against a removal, conflict.
 */
export type ConflictReason =
  | 'document'
  | 'metadata'
  | 'edit-delete'
  | 'move'
  | 'deleted-parent'
  | 'cycle'
  | 'duplicate-slug'
  | 'file'
  | 'duplicate-file-name'
  | 'variable'
  | 'reusable-content'
  | 'duplicate-include-name'
  | 'git-file';

export interface TreeConflict {
  reason: ConflictReason;
  /** The page, file, variable or reusable content in conflict. */
  id: string;
  /** Title of the page (or name of the file) as the conflicting sides show it, for messages. */
  title: string;
  /** For `metadata` and `reusable-content`: the fields in conflict. */
  fields?: string[];
}

export type { DocumentStore } from './document-store.js';

export type TreeMerge = { kind: 'clean'; tree: ContentTree } | { kind: 'conflict'; conflicts: TreeConflict[] };

interface Shape {
  id: string;
  type: TreePage['type'];
  meta: PageMeta;
  document: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
}

function shapeOf(page: TreePage): Shape {
  const meta: Record<string, unknown> = {};
  for (const key of PAGE_META_KEYS) if (page[key] !== undefined) meta[key] = page[key];
  return {
    id: page.id,
    type: page.type,
    meta: meta as unknown as PageMeta,
    document: page.document,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

/**
 * What a side did to a page, for an edit against a delete: its content, metadata or place. The
 * times are not an edit: a page edited and then reverted (`revert_page` keeps `updatedAt`) holds
 * nothing the deletion would lose.
 */
const edited = (base: PagePlace, side: PagePlace) => {
  const [b, s] = [shapeOf(base.page), shapeOf(side.page)];
  return b.type !== s.type || b.document !== s.document || !same(b.meta, s.meta) || base.parentId !== side.parentId;
};

/** Equal trees: `same`, and variables in the same order (the order of `.gitbook/vars.yaml` is content too). */
const sameTree = (a: ContentTree, b: ContentTree) =>
  same(a, b) && Object.keys(a.variables).join('\u0000') === Object.keys(b.variables).join('\u0000');

export function mergeTrees(base: ContentTree, ours: ContentTree, theirs: ContentTree, docs: DocumentStore): TreeMerge {
  if (sameTree(base, ours)) return { kind: 'clean', tree: theirs };
  if (sameTree(base, theirs) || sameTree(ours, theirs)) return { kind: 'clean', tree: ours };

  const conflicts: TreeConflict[] = [];
  const pages = mergePages(base.pages, ours.pages, theirs.pages, docs, conflicts);
  const files = mergeById(base.files, ours.files, theirs.files, 'file', (f: TreeFile) => f.name, conflicts);
  fileNameClashes(base.files, ours.files, theirs.files, files, conflicts);
  const reusableContents = mergeById(
    base.reusableContents,
    ours.reusableContents,
    theirs.reusableContents,
    'reusable-content',
    (r: TreeReusableContent) => r.title,
    conflicts,
    (b, o, t) => mergeReusableContent(b, o, t, docs, conflicts),
  );
  includeNameClashes(base.reusableContents, ours.reusableContents, theirs.reusableContents, reusableContents, conflicts);
  const variables = mergeVariables(base.variables, ours.variables, theirs.variables, conflicts);
  const gitFiles = mergeGitFiles(base.gitFiles ?? [], ours.gitFiles ?? [], theirs.gitFiles ?? [], docs, conflicts);
  if (conflicts.length > 0 || !pages) return { kind: 'conflict', conflicts };
  return { kind: 'clean', tree: { pages, files, variables, reusableContents, ...(gitFiles.length > 0 ? { gitFiles } : {}) } };
}

function mergePages(
  basePages: readonly TreePage[],
  ourPages: readonly TreePage[],
  theirPages: readonly TreePage[],
  docs: DocumentStore,
  conflicts: TreeConflict[],
): TreePage[] | undefined {
  const B = indexPages(basePages);
  const O = indexPages(ourPages);
  const T = indexPages(theirPages);
  const ids = [...new Set([...O.keys(), ...T.keys(), ...B.keys()])];

  // 1. Which pages survive, with what content and under which parent.
  const merged = new Map<string, { shape: Shape; parentId: string | null }>();
  for (const id of ids) {
    const b = B.get(id);
    const o = O.get(id);
    const t = T.get(id);
    if (!o && !t) continue;
    if (!b) {
      // Added on one side, or (same id) on both: they must agree.
      if (o && t && (!same(shapeOf(o.page), shapeOf(t.page)) || o.parentId !== t.parentId)) {
        conflicts.push({ reason: 'metadata', id, title: o.page.title });
        continue;
      }
      const side = (o ?? t)!;
      merged.set(id, { shape: shapeOf(side.page), parentId: side.parentId });
      continue;
    }
    if (!o || !t) {
      const kept = (o ?? t)!;
      if (edited(b, kept)) conflicts.push({ reason: 'edit-delete', id, title: kept.page.title });
      continue;
    }
    const parent = pick(b.parentId, o.parentId, t.parentId);
    if (parent === 'conflict') {
      conflicts.push({ reason: 'move', id, title: o.page.title });
      continue;
    }
    const shape = mergeShape(shapeOf(b.page), shapeOf(o.page), shapeOf(t.page), docs, conflicts);
    if (shape) merged.set(id, { shape, parentId: parent.value });
  }

  // 2. Every parent must exist, and parents must not form a cycle.
  for (const [id, entry] of merged) {
    if (entry.parentId !== null && !merged.has(entry.parentId)) {
      const deletedHere = B.has(entry.parentId) && (!O.has(entry.parentId) || !T.has(entry.parentId));
      if (deletedHere) conflicts.push({ reason: 'deleted-parent', id, title: entry.shape.meta.title });
    }
  }
  for (const [id, entry] of merged) {
    const seen = new Set<string>([id]);
    let parent = entry.parentId;
    while (parent !== null) {
      if (seen.has(parent)) {
        conflicts.push({ reason: 'cycle', id, title: entry.shape.meta.title });
        break;
      }
      seen.add(parent);
      parent = merged.get(parent)?.parentId ?? null;
    }
  }
  if (conflicts.length > 0) return undefined;

  // 3. Sibling order: the sequences of both sides merged with diff3 against the base order.
  const childrenIds = (index: ReadonlyMap<string, PagePlace>, roots: readonly TreePage[], parentId: string | null) => {
    const list = parentId === null ? roots : (index.get(parentId)?.page.pages ?? []);
    return list.map((p) => p.id).filter((id) => merged.get(id)?.parentId === parentId);
  };
  const build = (parentId: string | null): TreePage[] => {
    const order = mergeOrder(childrenIds(B, basePages, parentId), childrenIds(O, ourPages, parentId), childrenIds(T, theirPages, parentId));
    for (const [id, entry] of merged) if (entry.parentId === parentId && !order.includes(id)) order.push(id);
    const slugs = new Map<string, string>();
    return order.map((id) => {
      const { shape } = merged.get(id)!;
      const other = slugs.get(shape.meta.slug);
      if (other !== undefined && shape.meta.slug !== '') conflicts.push({ reason: 'duplicate-slug', id, title: shape.meta.title });
      slugs.set(shape.meta.slug, id);
      return toPage(shape, build(id));
    });
  };
  const pages = build(null);
  return conflicts.length > 0 ? undefined : pages;
}

function mergeShape(b: Shape, o: Shape, t: Shape, docs: DocumentStore, conflicts: TreeConflict[]): Shape | undefined {
  const meta: Record<string, unknown> = {};
  const badFields: string[] = [];
  for (const key of PAGE_META_KEYS) {
    const result = pick(b.meta[key], o.meta[key], t.meta[key]);
    if (result === 'conflict' && key === 'frontMatter') {
      // The front matter as written follows the fields, which merge on their own: its lines
      // merge as text, and where both sides changed one line it is left out (written afresh).
      const text = mergeText(b.meta.frontMatter ?? '', o.meta.frontMatter ?? '', t.meta.frontMatter ?? '');
      if (text.kind === 'clean' && text.text !== '') meta[key] = text.text;
    } else if (result === 'conflict') badFields.push(key);
    else if (result.value !== undefined) meta[key] = result.value;
  }
  const type = pick(b.type, o.type, t.type);
  if (type === 'conflict') badFields.push('type');
  if (badFields.length > 0) {
    conflicts.push({ reason: 'metadata', id: o.id, title: o.meta.title, fields: badFields });
    return undefined;
  }
  let document = pick(b.document, o.document, t.document);
  if (document === 'conflict') {
    const text = mergeDocuments(docs, b.document, o.document, t.document);
    if (text.kind === 'conflict') {
      conflicts.push({ reason: 'document', id: o.id, title: o.meta.title });
      return undefined;
    }
    document = { value: text.text === '' ? undefined : docs.write(text.text) };
  }
  const updatedAt = [o.updatedAt, t.updatedAt]
    .filter((x): x is string => x !== undefined)
    .sort()
    .pop();
  return {
    id: o.id,
    type: (type as { value: Shape['type'] }).value,
    meta: meta as unknown as PageMeta,
    document: document.value,
    createdAt: b.createdAt ?? o.createdAt,
    updatedAt,
  };
}

function toPage(shape: Shape, pages: TreePage[]): TreePage {
  return {
    id: shape.id,
    type: shape.type,
    ...shape.meta,
    ...(shape.document !== undefined ? { document: shape.document } : {}),
    ...(shape.createdAt !== undefined ? { createdAt: shape.createdAt } : {}),
    ...(shape.updatedAt !== undefined ? { updatedAt: shape.updatedAt } : {}),
    pages,
  };
}

/**
 * Merges two edits of one ordered list against its base order. Items either side removed are
 * gone. The items both sides kept keep the order of the side that reordered them (when both
 * did, the order that sorts first, so the result does not depend on which side is "ours").
 * Items new on a side stay right after the kept item they followed on that side; when both
 * sides added items at the same spot, the group whose first id sorts first comes first.
 */
export function mergeOrder(base: string[], ours: string[], theirs: string[]): string[] {
  if (same(base, ours)) return [...theirs];
  if (same(base, theirs) || same(ours, theirs)) return [...ours];
  const inOurs = new Set(ours);
  const inTheirs = new Set(theirs);
  const inBase = new Set(base);
  const kept = new Set(base.filter((id) => inOurs.has(id) && inTheirs.has(id)));
  const keptOrder = (list: string[]) => list.filter((id) => kept.has(id));
  const baseOrder = keptOrder(base);
  const ourOrder = keptOrder(ours);
  const theirOrder = keptOrder(theirs);
  const oursMoved = !same(ourOrder, baseOrder);
  const theirsMoved = !same(theirOrder, baseOrder);
  let order = baseOrder;
  if (oursMoved && !theirsMoved) order = ourOrder;
  else if (theirsMoved && !oursMoved) order = theirOrder;
  else if (oursMoved && theirsMoved) order = ourOrder.join('\u0000') <= theirOrder.join('\u0000') ? ourOrder : theirOrder;

  /** New items of one side, grouped by the kept item they follow ('' for the start). */
  const anchored = (list: string[]) => {
    const groups = new Map<string, string[]>();
    let anchor = '';
    for (const id of list) {
      if (kept.has(id)) anchor = id;
      else if (!inBase.has(id)) groups.set(anchor, [...(groups.get(anchor) ?? []), id]);
    }
    return groups;
  };
  const ourNew = anchored(ours);
  const theirNew = anchored(theirs);
  const out: string[] = [];
  const emitAfter = (anchor: string) => {
    const groups = [ourNew.get(anchor) ?? [], theirNew.get(anchor) ?? []].filter((g) => g.length > 0);
    groups.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
    for (const group of groups) for (const id of group) if (!out.includes(id)) out.push(id);
  };
  emitAfter('');
  for (const id of order) {
    out.push(id);
    emitAfter(id);
  }
  return out;
}

function mergeById<T extends { id: string }>(
  base: readonly T[],
  ours: readonly T[],
  theirs: readonly T[],
  reason: ConflictReason,
  label: (item: T) => string,
  conflicts: TreeConflict[],
  /** Merges an item both sides kept and changed differently; undefined after reporting a conflict. */
  combine?: (base: T, ours: T, theirs: T) => T | undefined,
): T[] {
  const B = new Map(base.map((x) => [x.id, x]));
  const O = new Map(ours.map((x) => [x.id, x]));
  const T = new Map(theirs.map((x) => [x.id, x]));
  const result = new Map<string, T>();
  for (const id of new Set([...O.keys(), ...T.keys(), ...B.keys()])) {
    const b = B.get(id);
    const o = O.get(id);
    const t = T.get(id);
    const choice = pick(b, o, t);
    if (choice === 'conflict' && b && o && t && combine) {
      const merged = combine(b, o, t);
      if (merged) result.set(id, merged);
      continue;
    }
    if (choice === 'conflict') {
      conflicts.push({ reason, id, title: label((o ?? t)!) });
      continue;
    }
    if (choice.value !== undefined) result.set(id, choice.value);
  }
  const order = mergeOrder(
    base.map((x) => x.id),
    ours.map((x) => x.id),
    theirs.map((x) => x.id),
  ).filter((id) => result.has(id));
  for (const id of result.keys()) if (!order.includes(id)) order.push(id);
  return order.map((id) => result.get(id)!);
}

/** Names two or more of `files` hold. */
function sharedNames(files: readonly TreeFile[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const file of files) (seen.has(file.name) ? shared : seen).add(file.name);
  return shared;
}

/**
 * A file is its name in the Git Sync layout, so a merge must not make two files of one name
 * (each side adding its own `logo.png`): every file new to the base under such a name is a
 * conflict. Names a side already shared (written before insert_files replaced by name) are left alone.
 */
function fileNameClashes(
  base: readonly TreeFile[],
  ours: readonly TreeFile[],
  theirs: readonly TreeFile[],
  merged: readonly TreeFile[],
  conflicts: TreeConflict[],
): void {
  const before = new Set([...sharedNames(ours), ...sharedNames(theirs)]);
  const clashing = [...sharedNames(merged)].filter((name) => !before.has(name));
  if (clashing.length === 0) return;
  const inBase = new Set(base.map((f) => f.id));
  for (const file of merged) {
    if (clashing.includes(file.name) && !inBase.has(file.id))
      conflicts.push({ reason: 'duplicate-file-name', id: file.id, title: file.name });
  }
}

function mergeVariables(
  base: Record<string, VariableValue>,
  ours: Record<string, VariableValue>,
  theirs: Record<string, VariableValue>,
  conflicts: TreeConflict[],
): Record<string, VariableValue> {
  const result: Record<string, VariableValue> = {};
  // In the order the sides wrote them (`.gitbook/vars.yaml`), merged as sibling pages' order is.
  const keys = mergeOrder(Object.keys(base), Object.keys(ours), Object.keys(theirs));
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) if (!keys.includes(key)) keys.push(key);
  for (const key of keys) {
    const choice = pick(base[key], ours[key], theirs[key]);
    if (choice === 'conflict') conflicts.push({ reason: 'variable', id: key, title: key });
    else if (choice.value !== undefined) result[key] = choice.value;
  }
  return result;
}

function mergeGitFiles(
  base: readonly TreeGitFile[],
  ours: readonly TreeGitFile[],
  theirs: readonly TreeGitFile[],
  docs: DocumentStore,
  conflicts: TreeConflict[],
): TreeGitFile[] {
  const byPath = (list: readonly TreeGitFile[]) => new Map(list.map((f) => [f.path, f.document]));
  const [B, O, T] = [byPath(base), byPath(ours), byPath(theirs)];
  const result: TreeGitFile[] = [];
  for (const path of [...new Set([...O.keys(), ...T.keys(), ...B.keys()])].sort()) {
    const choice = pick(B.get(path), O.get(path), T.get(path));
    if (choice !== 'conflict') {
      if (choice.value !== undefined) result.push({ path, document: choice.value });
      continue;
    }
    const [o, t] = [O.get(path), T.get(path)];
    const text = o !== undefined && t !== undefined ? mergeDocuments(docs, B.get(path), o, t) : undefined;
    if (text === undefined || text.kind === 'conflict') conflicts.push({ reason: 'git-file', id: path, title: path });
    else result.push({ path, document: docs.write(text.text) });
  }
  return result;
}
