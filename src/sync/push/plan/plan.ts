import { walkPages } from '../../../content/index.js';
import type { ContentChange } from '../../../model/index.js';
import type { WorkspaceContent, WorkspaceDocument, WorkspacePage } from '../../../workspace/index.js';
import { documentChanged, fieldChanges, fileChanges, insertChange, linksByPath, pageDocument, withoutBody } from './changes.js';
import { keptInOrder } from './order.js';
import { ROOT, SimTree, slugOf } from './simulate.js';

/**
 * Turning the difference between two contents into the fewest page operations (issue 5, "How
 * push works"). Pure: the remote side has the server's ids, the local side the same ids where a
 * page was matched (by path, or by git's rename detection) and `new-…` ids elsewhere.
 *
 * The plan is built by walking the local tree level by level against a model of the remote tree
 * (SimTree) that each planned operation updates, so every `into`/`at` is right at the moment the
 * server applies it. Invariants the walk keeps, which the property tests check against the
 * server's own batch code:
 * - A page is placed only under a parent already in its final place, so no move goes into the
 *   page's own subtree (a page may move into what was its child: the child moved up first).
 * - A list of siblings is built left to right: a page that moves or is new goes right after its
 *   previous local sibling; the kept pages already in order stay, so moving one page is one
 *   operation. Pages still to move out or to be deleted may sit between, and leave later.
 * - Slugs stay unique among siblings after every operation: a sibling holding a slug a page
 *   needs is first given a temporary slug, and gets its own at its turn.
 * - Pages that keep their id are updated, never deleted and inserted (a rename or a move keeps
 *   comments); deletes of pages holding no survivors go first, so a new page can take a deleted
 *   page's slug, and the others last, once their surviving subpages have moved out.
 * - Level by level, a new page's new children come in the level after it: the sender starts a
 *   new batch where a change names a parent inserted in the batch (see `batchesOf`), so a push
 *   takes as many batches as new pages nest, not one per new parent.
 * - Documents that link to pages or files by path go last, once the tree is final: the server
 *   resolves such links when the change is applied (see `linksByPath`).
 */

/** A planned change: `into`, and `page` of an update_page, may name a page the plan inserts by its local id. */
export type PlannedChange = ContentChange;

export interface PushPlan {
  changes: PlannedChange[];
  /** Local id of each page the plan inserts → the batch ref that names it. */
  refs: Map<string, string>;
  counts: { inserted: number; updated: number; moved: number; deleted: number; files: number };
  /** Files the API cannot delete: kept on the platform, named so the user knows. */
  undeletableFiles: string[];
}

export interface PlanOptions {
  /** File of each local document page (for relative cover paths in front matter). */
  pathOf: (pageId: string) => string;
}

const flatten = (pages: readonly WorkspacePage[]): Map<string, WorkspacePage> =>
  new Map(Array.from(walkPages(pages), (page) => [page.id, page]));

/**
 * The kept children of `parent` that need no move: of those already under it, the most that are
 * in the local order already, preferring pages that are updated anyway (their move is free).
 */
function stayingChildren(
  list: readonly WorkspacePage[],
  parent: string,
  sim: SimTree,
  remotePages: ReadonlyMap<string, WorkspacePage>,
): Set<string> {
  const here = sim.childrenOf(parent);
  const position = new Map(here.map((id, index) => [id, index]));
  const items = list.flatMap((page) => {
    const before = remotePages.get(page.id);
    if (before === undefined || !position.has(page.id)) return [];
    const clean = Object.keys(fieldChanges(before, page, slugOf(before))).length === 0 && !documentChanged(before, page);
    return [{ key: page.id, position: position.get(page.id)!, weight: clean ? list.length + 1 : 1 }];
  });
  return keptInOrder(items, here.length);
}

/**
 * The page operations that turn `remote` into `local`. Files first (a page may show a new
 * image), then deletes of whole dead subtrees, then the local tree level by level, then the
 * deletes that had to wait until their surviving subpages moved out, then the documents that
 * link by path.
 */
export function planPush(remote: WorkspaceContent, local: WorkspaceContent, options: PlanOptions): PushPlan {
  const remotePages = flatten(remote.pages);
  const localPages = flatten(local.pages);
  const sim = new SimTree(remote.pages);
  const changes: PlannedChange[] = [];
  const refs = new Map<string, string>();
  const counts = { inserted: 0, updated: 0, moved: 0, deleted: 0, files: 0 };

  const files = fileChanges(remote.files, local.files);
  if (files.items.length > 0) {
    changes.push({ operation: 'insert_files', files: files.items });
    counts.files = files.items.length;
  }

  const survives = (id: string): boolean => localPages.has(id) || (sim.children.get(id) ?? []).some(survives);
  const deleted = [...remotePages.keys()].filter((id) => !localPages.has(id));
  const deletedSet = new Set(deleted);
  const remove = (id: string) => {
    changes.push({ operation: 'delete_page', page: id });
    sim.remove(id);
    counts.deleted += 1;
  };
  for (const id of deleted.filter((id) => !survives(id) && !deletedSet.has(sim.pages.get(id)!.parent))) remove(id);

  /** Frees `slug` under `parent` for `id`: its holder takes a slug no sibling holds or will take. */
  const clearSlug = (parent: string, slug: string, id: string, wanted: ReadonlySet<string>) => {
    const holder = sim.holderOf(parent, slug, id);
    if (holder === undefined) return;
    const held = sim.slugsUnder(parent);
    let aside: string;
    let n = 0;
    do aside = `${slug.slice(0, 80)}-docsync-${(n += 1)}`;
    while (held.has(aside) || wanted.has(aside));
    changes.push({ operation: 'update_page', page: holder, slug: aside });
    sim.setSlug(holder, aside);
  };

  // The server refuses a ref that is an existing page's path (`./<ref>.md` would be ambiguous),
  // and a top-level page's path is its slug: no ref is any page's slug, remote or local.
  const taken = new Set([...remotePages.values(), ...localPages.values()].map(slugOf));
  let refCount = 0;
  const nextRef = () => {
    let ref: string;
    do ref = `docsync-${(refCount += 1)}`;
    while (taken.has(ref));
    return ref;
  };

  // Documents that link by path, sent once the tree is final (see `linksByPath`).
  const documents: PlannedChange[] = [];
  const sendLast = (page: WorkspaceDocument, before: WorkspaceDocument | undefined) => {
    documents.push({
      operation: 'update_page',
      page: page.id,
      document: { markdown: pageDocument(page, before, options.pathOf(page.id), local.files) },
    });
  };

  const placeChildren = (list: readonly WorkspacePage[], parent: string) => {
    const wanted = new Set(list.map(slugOf));
    const stays = stayingChildren(list, parent, sim, remotePages);
    // Right after the previous local sibling, which is in place; the local index is not the
    // server's while pages still to move out or to be deleted sit among the siblings.
    const at = (index: number) => (index === 0 ? 0 : sim.childrenOf(parent).indexOf(list[index - 1]!.id) + 1);
    list.forEach((page, index) => {
      const before = remotePages.get(page.id);
      if (before === undefined) {
        const ref = nextRef();
        refs.set(page.id, ref);
        clearSlug(parent, slugOf(page), page.id, wanted);
        const place = { ...(parent === ROOT ? {} : { into: parent }), at: at(index), ref };
        const late = page.type === 'document' && linksByPath(page.markdown);
        changes.push(insertChange(late ? withoutBody(page) : page, place, options.pathOf(page.id), local.files));
        if (late) sendLast(page, undefined);
        sim.place(page.id, parent, place.at, slugOf(page));
        counts.inserted += 1;
        return;
      }
      const moved = !stays.has(page.id);
      const fields = fieldChanges(before, page, sim.pages.get(page.id)!.slug);
      const changed = documentChanged(before, page);
      const late = changed && linksByPath((page as WorkspaceDocument).markdown);
      if (changed || Object.keys(fields).length > 0) counts.updated += 1;
      if (late) sendLast(page as WorkspaceDocument, before as WorkspaceDocument);
      if (fields.slug !== undefined || moved) clearSlug(parent, slugOf(page), page.id, wanted);
      if (!moved && !(changed && !late) && Object.keys(fields).length === 0) return;
      const change: Record<string, unknown> = { operation: 'update_page', page: page.id, ...fields };
      if (moved) {
        sim.detach(page.id);
        change.into = parent === ROOT ? null : parent;
        change.at = at(index);
        sim.place(page.id, parent, change.at as number, slugOf(page));
        counts.moved += 1;
      } else sim.setSlug(page.id, slugOf(page));
      if (changed && !late)
        change.document = {
          markdown: pageDocument(page as WorkspaceDocument, before as WorkspaceDocument, options.pathOf(page.id), local.files),
        };
      changes.push(change as PlannedChange);
    });
  };

  let level: [readonly WorkspacePage[], string][] = [[local.pages, ROOT]];
  while (level.length > 0) {
    for (const [list, parent] of level) placeChildren(list, parent);
    level = level.flatMap(([list]) =>
      list.flatMap((page): [readonly WorkspacePage[], string][] => (page.type === 'link' ? [] : [[page.pages, page.id]])),
    );
  }

  for (const id of deleted) {
    const place = sim.pages.get(id);
    if (place !== undefined && !deletedSet.has(place.parent)) remove(id);
  }
  changes.push(...documents);
  return { changes, refs, counts, undeletableFiles: files.undeletable };
}
