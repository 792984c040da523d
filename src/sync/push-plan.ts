import { DEFAULT_PAGE_LAYOUT, type ContentChange, type InsertFileItem, type PageLayout } from '../model/index.js';
import {
  renderFrontMatter, renderPageMeta, splitMarkdown, type WorkspaceContent, type WorkspaceDocument, type WorkspaceFile, type WorkspacePage,
} from '../workspace/index.js';
import { keptInOrder } from './push-plan-order.js';


/**
 * Turning the difference between two contents into the fewest page operations (issue 5, "How
 * push works"). Pure: the remote side has the server's ids, the local side the same ids where a
 * page was matched (by path, or by git's rename detection) and `new-…` ids elsewhere.
 *
 * The plan is built by walking the local tree top-down against a model of the remote tree that
 * each planned operation updates, so every `into`/`at` is right at the moment the server applies
 * it: a page is inserted (or moved) at its final index once the siblings before it are in place.
 * Pages that keep their id are updated in place (a rename or move keeps comments); deletes of
 * pages holding no survivors go first, so a new page can take a deleted page's slug.
 */

/** A planned change: `into` may name a page inserted earlier in the plan by its local id. */
export type PlannedChange = ContentChange;

export interface PushPlan {
  changes: PlannedChange[];
  /** Local id of each page the plan inserts → the batch ref that names it. */
  refs: Map<string, string>;
  counts: { inserted: number; updated: number; moved: number; deleted: number; files: number };
  /** Files the API cannot delete: kept on the platform, named so the user knows. */
  undeletableFiles: string[];
}

const ROOT = '';
const isNew = (id: string, remoteIds: ReadonlySet<string>) => !remoteIds.has(id);

interface SimPage {
  parent: string;
  slug: string;
}

/** The remote tree as the plan changes it: children by parent, each page's parent and slug. */
class SimTree {
  readonly children = new Map<string, string[]>();
  readonly pages = new Map<string, SimPage>();

  constructor(pages: readonly WorkspacePage[]) {
    const visit = (list: readonly WorkspacePage[], parent: string) => {
      this.children.set(parent, list.map((p) => p.id));
      for (const page of list) {
        this.pages.set(page.id, { parent, slug: slugOf(page) });
        if (page.type !== 'link') visit(page.pages, page.id);
      }
    };
    visit(pages, ROOT);
  }

  childrenOf(parent: string): string[] {
    let list = this.children.get(parent);
    if (!list) this.children.set(parent, (list = []));
    return list;
  }

  /** Takes the page out of its siblings (its subtree stays with it), to be placed again. */
  detach(id: string): void {
    const current = this.pages.get(id);
    if (!current) return;
    const siblings = this.childrenOf(current.parent);
    const index = siblings.indexOf(id);
    if (index >= 0) siblings.splice(index, 1);
  }

  place(id: string, parent: string, at: number, slug: string): void {
    this.detach(id);
    this.childrenOf(parent).splice(at, 0, id);
    this.pages.set(id, { parent, slug });
  }

  remove(id: string): void {
    const page = this.pages.get(id);
    if (!page) return;
    const siblings = this.childrenOf(page.parent);
    siblings.splice(siblings.indexOf(id), 1);
    const drop = (pageId: string) => {
      this.pages.delete(pageId);
      for (const child of this.children.get(pageId) ?? []) drop(child);
      this.children.delete(pageId);
    };
    drop(id);
  }

  /** The sibling of `id` under `parent` that holds `slug`, if any. */
  holderOf(parent: string, slug: string, id: string): string | undefined {
    if (slug === '') return undefined;
    return this.childrenOf(parent).find((other) => other !== id && this.pages.get(other)?.slug === slug);
  }
}

const slugOf = (page: WorkspacePage) => (page.type === 'link' ? '' : page.slug);

/**
 * The kept children of `parent` that need no move: of those already under it, the most that are
 * in the local order already, preferring pages that are not updated anyway (their move is free).
 */
function stayingChildren(list: readonly WorkspacePage[], parent: string, sim: SimTree, remotePages: ReadonlyMap<string, WorkspacePage>): Set<string> {
  const here = sim.childrenOf(parent);
  const items = list.flatMap((page) => {
    const before = remotePages.get(page.id);
    if (before === undefined || sim.pages.get(page.id)?.parent !== parent) return [];
    const clean = Object.keys(fieldChanges(before, page, slugOf(before))).length === 0
      && !(before.type === 'document' && page.type === 'document' && documentChanged(before, page));
    return [{ key: page.id, position: here.indexOf(page.id), weight: clean ? list.length + 1 : 1 }];
  });
  return keptInOrder(items, here.length);
}

function flatten(pages: readonly WorkspacePage[], into = new Map<string, WorkspacePage>()): Map<string, WorkspacePage> {
  for (const page of pages) {
    into.set(page.id, page);
    if (page.type !== 'link') flatten(page.pages, into);
  }
  return into;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Fields the batch sets directly, and what clears each when the local page dropped it. */
const CLEARABLE = ['emoji', 'icon', 'description', 'condition', 'linkTitle'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** Front-matter-only fields: changing one means sending the document (with its front matter). */
function documentChanged(remote: WorkspaceDocument, local: WorkspaceDocument): boolean {
  return remote.markdown !== local.markdown || !same(remote.layout, local.layout) || !same(remote.cover, local.cover) || !same(remote.variables, local.variables);
}

export interface PlanOptions {
  /** File of each local document page (for relative cover paths in front matter). */
  pathOf: (pageId: string) => string;
}

/**
 * The document sent for a page: its front matter (GitBook's keys, the title first so a leading
 * `# heading` in the body stays content) and its body. Layout options the remote page set and
 * the local one drops are written out as their defaults, since the server merges layouts key by
 * key; options neither side set are left out, so a page is sent only the options it uses.
 */
export function pageDocument(page: WorkspaceDocument, remote: WorkspaceDocument | undefined, path: string, files: readonly WorkspaceFile[]): string {
  const { extra, body } = splitMarkdown(page.markdown);
  const dropped = (Object.keys(remote?.layout ?? {}) as (keyof PageLayout)[]).filter((key) => page.layout?.[key] === undefined);
  const layout = dropped.length === 0 ? page.layout : { ...Object.fromEntries(dropped.map((key) => [key, DEFAULT_PAGE_LAYOUT[key]])), ...page.layout };
  const names = new Map(files.map((f) => [f.id, f.name]));
  const meta = renderPageMeta({ ...page, ...(layout ? { layout } : {}) }, extra, path, (id) => names.get(id));
  return renderFrontMatter({ title: page.title, ...meta }) + body;
}

/** What changed in a page's own fields (not its place), as update_page fields; `slugNow` is the slug it holds at its turn. */
function fieldChanges(remote: WorkspacePage, local: WorkspacePage, slugNow: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (remote.title !== local.title) fields.title = local.title;
  if (slugNow !== slugOf(local) && local.type !== 'link') fields.slug = slugOf(local);
  if (remote.type === 'link' && local.type === 'link' && remote.href !== local.href) fields.href = local.href;
  if (remote.type === 'document' && local.type === 'document') {
    for (const key of CLEARABLE) if (remote[key] !== local[key]) fields[key] = local[key] ?? '';
    for (const flag of FLAGS) if ((remote[flag] ?? false) !== (local[flag] ?? false)) fields[flag] = local[flag] ?? false;
  }
  return fields;
}

function fileChanges(remote: readonly WorkspaceFile[], local: readonly WorkspaceFile[]): { items: InsertFileItem[]; undeletable: string[] } {
  const remoteByName = new Map(remote.map((f) => [f.name, f]));
  const localNames = new Set(local.map((f) => f.name));
  const items: InsertFileItem[] = [];
  for (const file of local) {
    const before = remoteByName.get(file.name);
    if (file.bytes === undefined) continue;
    if (before?.bytes !== undefined && Buffer.from(before.bytes).equals(Buffer.from(file.bytes))) continue;
    items.push({ name: file.name, contentType: file.contentType, base64: Buffer.from(file.bytes).toString('base64') });
  }
  return { items, undeletable: remote.filter((f) => !localNames.has(f.name)).map((f) => f.name) };
}

/**
 * The page operations that turn `remote` into `local`. Files first (a page may show a new
 * image), then deletes of whole dead subtrees, then the local tree top-down, then the deletes
 * that had to wait until their surviving children moved out.
 */
export function planPush(remote: WorkspaceContent, local: WorkspaceContent, options: PlanOptions): PushPlan {
  const remotePages = flatten(remote.pages);
  const localPages = flatten(local.pages);
  const remoteIds = new Set(remotePages.keys());
  const sim = new SimTree(remote.pages);
  const changes: PlannedChange[] = [];
  const refs = new Map<string, string>();
  const counts = { inserted: 0, updated: 0, moved: 0, deleted: 0, files: 0 };

  const files = fileChanges(remote.files, local.files);
  if (files.items.length > 0) {
    changes.push({ operation: 'insert_files', files: files.items });
    counts.files = files.items.length;
  }

  // A deleted page whose remote subtree holds no surviving page can go at once.
  const survives = (id: string): boolean => localPages.has(id) || (sim.children.get(id) ?? []).some(survives);
  const deleted = [...remotePages.keys()].filter((id) => !localPages.has(id));
  const deletedSet = new Set(deleted);
  const deleteNow = deleted.filter((id) => !survives(id) && !deletedSet.has(sim.pages.get(id)!.parent));
  for (const id of deleteNow) {
    changes.push({ operation: 'delete_page', page: id });
    sim.remove(id);
    counts.deleted += 1;
  }

  /**
   * A sibling holding the slug a page needs moves aside first, to a slug no sibling holds now
   * or will take; its own turn gives its final slug.
   */
  const clearSlug = (parent: string, slug: string, id: string, wanted: ReadonlySet<string>) => {
    const holder = sim.holderOf(parent, slug, id);
    if (holder === undefined) return;
    const held = new Set(sim.childrenOf(parent).map((other) => sim.pages.get(other)!.slug));
    let aside: string;
    for (let n = 1; ; n += 1) {
      aside = `${slug.slice(0, 80)}-docsync-${n}`;
      if (!held.has(aside) && !wanted.has(aside)) break;
    }
    changes.push({ operation: 'update_page', page: holder, slug: aside });
    sim.pages.get(holder)!.slug = aside;
  };

  // The server refuses a ref that is an existing page's path (`./<ref>.md` would be ambiguous),
  // and a top-level page's path is its slug: no ref is any page's slug, remote or local.
  const slugs = new Set([...remotePages.values(), ...localPages.values()].map(slugOf));
  let refCount = 0;
  const nextRef = () => {
    let ref: string;
    do ref = `docsync-${(refCount += 1)}`;
    while (slugs.has(ref));
    return ref;
  };

  const visit = (list: readonly WorkspacePage[], parent: string) => {
    const wanted = new Set(list.map(slugOf));
    const stays = stayingChildren(list, parent, sim, remotePages);
    list.forEach((page, index) => {
      const into = parent === ROOT ? undefined : parent;
      // Right after the previous local sibling, which is in place: pages still to move out or to
      // be deleted may sit anywhere among the siblings, so the local index is not the server's.
      const at = () => (index === 0 ? 0 : sim.childrenOf(parent).indexOf(list[index - 1]!.id) + 1);
      if (isNew(page.id, remoteIds)) {
        const ref = nextRef();
        refs.set(page.id, ref);
        clearSlug(parent, slugOf(page), page.id, wanted);
        const position = at();
        changes.push(insertChange(page, into, position, ref, options, local.files));
        sim.place(page.id, parent, position, slugOf(page));
        counts.inserted += 1;
      } else {
        const before = remotePages.get(page.id)!;
        const moved = !stays.has(page.id);
        // Against the slug the page holds now: a sibling moved aside earlier gets its own back.
        const fields = fieldChanges(before, page, sim.pages.get(page.id)!.slug);
        const withDocument = before.type === 'document' && page.type === 'document' && documentChanged(before, page);
        if (fields.slug !== undefined || moved) clearSlug(parent, slugOf(page), page.id, wanted);
        if (moved || withDocument || Object.keys(fields).length > 0) {
          const change: Record<string, unknown> = { operation: 'update_page', page: page.id, ...fields };
          if (moved) {
            sim.detach(page.id);
            change.into = parent === ROOT ? null : parent;
            change.at = at();
            sim.place(page.id, parent, change.at as number, slugOf(page));
            counts.moved += 1;
          }
          if (withDocument) change.document = { markdown: pageDocument(page as WorkspaceDocument, before as WorkspaceDocument, options.pathOf(page.id), local.files) };
          if (withDocument || Object.keys(fields).length > 0) counts.updated += 1;
          changes.push(change as PlannedChange);
        }
        sim.pages.get(page.id)!.slug = slugOf(page);
      }
      if (page.type !== 'link') visit(page.pages, page.id);
    });
  };
  visit(local.pages, ROOT);

  for (const id of deleted) {
    const place = sim.pages.get(id);
    if (place === undefined || deletedSet.has(place.parent)) continue;
    changes.push({ operation: 'delete_page', page: id });
    sim.remove(id);
    counts.deleted += 1;
  }
  return { changes, refs, counts, undeletableFiles: files.undeletable };
}

function insertChange(page: WorkspacePage, into: string | undefined, at: number, ref: string, options: PlanOptions, files: readonly WorkspaceFile[]): PlannedChange {
  const place = { ...(into !== undefined ? { into } : {}), at, ref };
  if (page.type === 'group') return { operation: 'insert_page', type: 'group', title: page.title, slug: page.slug, document: {}, ...place } as PlannedChange;
  if (page.type === 'link') return { operation: 'insert_page', type: 'link', title: page.title, href: page.href, document: {}, ...place } as PlannedChange;
  const linkTitle = page.linkTitle !== undefined ? { linkTitle: page.linkTitle } : {};
  return {
    operation: 'insert_page',
    title: page.title,
    slug: page.slug,
    ...linkTitle,
    document: { markdown: pageDocument(page, undefined, options.pathOf(page.id), files) },
    ...place,
  } as PlannedChange;
}
