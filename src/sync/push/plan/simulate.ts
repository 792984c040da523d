import { walkPlacedPages } from '../../../content/index.js';
import type { WorkspacePage } from '../../../workspace/index.js';

/** The parent key of top-level pages. */
export const ROOT = '';

/** The slug a page holds among its siblings; link pages hold none. */
export const slugOf = (page: WorkspacePage): string => (page.type === 'link' ? '' : page.slug);

interface SimPage {
  parent: string;
  slug: string;
}

/**
 * The remote tree as the plan changes it, one planned operation at a time: children by parent
 * (in the server's order), each page's parent and slug. Every `at` the planner sends is an index
 * into this model at the moment the server applies the change.
 */
export class SimTree {
  readonly children = new Map<string, string[]>();
  readonly pages = new Map<string, SimPage>();
  /** Parent → slug → the child holding it, so finding a slug's holder costs no walk of thousands of siblings. */
  readonly #holders = new Map<string, Map<string, string>>();

  constructor(pages: readonly WorkspacePage[]) {
    this.children.set(
      ROOT,
      pages.map((p) => p.id),
    );
    for (const { page, parent = ROOT } of walkPlacedPages(pages)) {
      this.pages.set(page.id, { parent, slug: slugOf(page) });
      this.#hold(parent, slugOf(page), page.id);
      if (page.type !== 'link')
        this.children.set(
          page.id,
          page.pages.map((p) => p.id),
        );
    }
  }

  #hold(parent: string, slug: string, id: string): void {
    if (slug === '') return;
    let held = this.#holders.get(parent);
    if (!held) this.#holders.set(parent, (held = new Map()));
    held.set(slug, id);
  }

  #release(id: string): void {
    const page = this.pages.get(id);
    const held = page && this.#holders.get(page.parent);
    if (held?.get(page!.slug) === id) held.delete(page!.slug);
  }

  /** Gives the page another slug where it is. */
  setSlug(id: string, slug: string): void {
    const page = this.pages.get(id)!;
    this.#release(id);
    page.slug = slug;
    this.#hold(page.parent, slug, id);
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
    this.#release(id);
    const siblings = this.childrenOf(current.parent);
    const index = siblings.indexOf(id);
    if (index >= 0) siblings.splice(index, 1);
  }

  /** Puts the page at `at` among `parent`'s children, as the server's move does (out first, then in). */
  place(id: string, parent: string, at: number, slug: string): void {
    this.detach(id);
    this.childrenOf(parent).splice(at, 0, id);
    this.pages.set(id, { parent, slug });
    this.#hold(parent, slug, id);
  }

  /** Deletes the page and its subtree. */
  remove(id: string): void {
    this.detach(id);
    const drop = (pageId: string) => {
      this.pages.delete(pageId);
      for (const child of this.children.get(pageId) ?? []) drop(child);
      this.children.delete(pageId);
      this.#holders.delete(pageId);
    };
    drop(id);
  }

  /** The sibling of `id` under `parent` that holds `slug`, if any. */
  holderOf(parent: string, slug: string, id: string): string | undefined {
    const holder = this.#holders.get(parent)?.get(slug);
    return holder === id ? undefined : holder;
  }

  /** Slugs `parent`'s children hold now. */
  slugsUnder(parent: string): Set<string> {
    return new Set(this.childrenOf(parent).map((id) => this.pages.get(id)!.slug));
  }
}
