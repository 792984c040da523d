import type { TreePage } from '../../model/index.js';

/**
 * A token standing for a tree's shape: its pages' ids, slugs, types, kept files and nesting, in order. What
 * depends on the shape alone (paths, link lookups) is cached by token, so a tree derived from
 * another by edits that keep the shape (a document, a title, metadata) reuses the other's paths
 * instead of walking all its pages again. Tokens are plain objects, so a cache entry lives as
 * long as some tree of that shape does, and holds no tree.
 */
export type Shape = object;

const shapes = new WeakMap<readonly TreePage[], Shape>();

export function shapeOf(pages: readonly TreePage[]): Shape {
  let shape = shapes.get(pages);
  if (!shape) shapes.set(pages, (shape = {}));
  return shape;
}

/** Records that `to` has the shape of `from` (the caller checked it page by page). */
export function inheritShape(from: readonly TreePage[], to: readonly TreePage[]): void {
  if (from !== to) shapes.set(to, shapeOf(from));
}
