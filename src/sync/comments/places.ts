import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommentPlace } from '../../client/index.js';
import { DocsyncError } from '../../model/index.js';
import { currentBranch } from '../../git/index.js';
import { GITBOOK_YAML, parseGitbookYaml, rootPrefix } from '../../workspace/index.js';
import { readState, type BranchState } from '../state/state.js';

/** One place a branch's comments live, with the page index that maps its pages to files. */
export interface BranchPlace {
  place: CommentPlace;
  /** `#12` for a change request, `space` for the space's own comments. */
  label: string;
  /** Page id → file path relative to the workspace. */
  files: Map<string, string>;
}

/**
 * Where the comments of a branch live: a change request branch has its change request's; `main`
 * has the space's own and, while it has one, those of its outbox change request (where commits
 * made on main went). `branch` defaults to the checked-out one.
 */
export async function branchPlaces(dir: string, branch?: string): Promise<{ branch: string; places: BranchPlace[] }> {
  const state = await readState(dir);
  const name = branch ?? (await currentBranch(dir));
  if (name === undefined || name === null) throw new DocsyncError('invalid_request', 'no branch is checked out; name one');
  const synced = state.branches[name];
  if (!synced) throw new DocsyncError('not_found', `branch ${name} is not tracked by docsync (docsync status lists the tracked ones)`);
  const prefix = await workspaceRoot(dir);
  const spaceId = state.binding.spaceId;
  const placeOf = (b: BranchState): BranchPlace => {
    // Made when first asked for: the daemon looks at every place at each pull, and only a comment
    // on a page needs the map (the branch's page index read and walked: 5,000 entries in a 5,000-page space).
    let files: Map<string, string> | undefined;
    return {
      place: { space: spaceId, changeRequest: b.changeRequestId },
      label:
        b.changeRequestNumber !== undefined ? `#${b.changeRequestNumber}` : b.changeRequestId !== undefined ? b.changeRequestId : 'space',
      get files() {
        return (files ??= pageFiles(b, prefix));
      },
    };
  };
  const places = [placeOf(synced)];
  if (synced.outbox?.changeRequestId !== undefined) places.push(placeOf(synced.outbox));
  return { branch: name, places };
}

/** Page ids to file paths, from the page keys of the branch's last sync (document pages' keys are their files). */
function pageFiles(branch: BranchState, prefix: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [key, id] of Object.entries(branch.index.pages)) if (key.endsWith('.md')) files.set(id, `${prefix}${key}`);
  return files;
}

/** The folder `.gitbook.yaml` roots the content in (`docs/`), or '' for the workspace itself. */
async function workspaceRoot(dir: string): Promise<string> {
  const text = await readFile(join(dir, GITBOOK_YAML), 'utf8').catch(() => undefined);
  return text === undefined ? '' : rootPrefix(parseGitbookYaml(text).settings.root);
}
