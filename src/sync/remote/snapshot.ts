import {
  writeFolder,
  type WorkspaceContent,
  type WorkspaceIndex,
  type WorkspacePage,
  type WorkspaceProblem,
} from '../../workspace/index.js';
import type { BranchState } from '../state/state.js';
import type { RemoteContent } from './content.js';

/** A remote revision as the files of a folder, with the ids the folder does not carry. */
export interface Snapshot {
  revision: string;
  files: Map<string, Uint8Array>;
  index: BranchState['index'];
  problems: WorkspaceProblem[];
}

const encoder = new TextEncoder();

/** Page id → the file (relative to the root) a document page is kept in. */
export type Places = ReadonlyMap<string, string>;

/**
 * The files an index places document pages in: its page keys that are files (not `group:` or
 * `link:` keys). What the writer put where stays there when the platform's content is written.
 */
export function placesOf(...indexes: readonly (BranchState['index'] | undefined)[]): Places {
  const places = new Map<string, string>();
  // The first index that places a page wins.
  for (const index of indexes) {
    for (const [key, id] of Object.entries(index?.pages ?? {})) {
      if (/\.md$/i.test(key) && !key.startsWith('group:') && !key.startsWith('link:') && !places.has(id)) places.set(id, key);
    }
  }
  return places;
}

function placed(pages: readonly WorkspacePage[], places: Places): WorkspacePage[] {
  return pages.map((page) => {
    if (page.type === 'link') return page;
    const children = placed(page.pages, places);
    const path = page.type === 'document' ? places.get(page.id) : undefined;
    return { ...page, pages: children, ...(path !== undefined ? { path } : {}) };
  });
}

/**
 * A remote content as a folder. `places` keeps each known page in the file the workspace has
 * it in (a hand-placed `misc/note.md`, a parent as `guides.md` beside `guides/`): the platform
 * does not know files, and without them every such page would be moved to GitBook's rule path by
 * the next pull or read-back (`writeFolder` still moves a page whose slug no longer fits the file).
 */
export function snapshotOf(remote: RemoteContent, places?: Places): Snapshot {
  const content: WorkspaceContent =
    places && places.size > 0 ? { ...remote.content, pages: placed(remote.content.pages, places) } : remote.content;
  const written = writeFolder(content);
  const files = new Map<string, Uint8Array>();
  for (const [path, data] of written.files) files.set(path, typeof data === 'string' ? encoder.encode(data) : data);
  return { revision: remote.revision, files, index: plainIndex(written.index), problems: written.problems };
}

export function plainIndex(index: WorkspaceIndex): BranchState['index'] {
  return { pages: Object.fromEntries(index.pages), files: Object.fromEntries(index.files), includes: Object.fromEntries(index.includes) };
}
