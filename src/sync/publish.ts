import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../client/index.js';
import type { Organization } from '../model/index.js';
import { branchOid, commitFiles, currentBranch, readTreeFiles, workingTreeChanges } from '../git/index.js';
import { DOCSYNC_AUTHOR } from './author.js';
import { SyncError } from './errors.js';
import { checkSpaceTitle } from './init.js';
import { mergePushed } from './change-requests/merge.js';
import { push, type PushResult } from './push/push.js';
import { readPushSides, skippedPlace, toIndex } from './push/read.js';
import { fetchContent } from './remote/content.js';
import { snapshotOf } from './remote/snapshot.js';
import { readState, writeState } from './state/state.js';
import { clearUnbound, readUnbound } from './state/unbound.js';

export interface PublishOptions {
  /** The API the workspace is bound to from now on. */
  apiUrl: string;
  /** The organization of the new space. @default the only organization the token's user is a member of */
  orgId?: string;
  /** Title of the new space. @default the title `initWorkspace` recorded */
  title?: string;
  /** Subject of the change request that carries the content. @default `Initial content of <title>` */
  subject?: string;
  onProgress?: (event: { stage: string; done: number; total: number }) => void;
}

export interface PublishResult {
  spaceId: string;
  title: string;
  orgId: string;
  /** The space in the app. */
  url: string;
  /** Main's revision once the content is live. */
  revision: string;
  /** The change request that carried the content (merged), when there was any content. */
  changeRequest?: { id: string; number: number; url: string };
  /** The push of main that carried the content (its `skipped` names files left out, and why). */
  push: PushResult;
  /** Files the pull after the merge left with conflict markers (only when someone wrote to the space meanwhile). */
  conflicts: string[];
}

const listing = (orgs: readonly Organization[]) => orgs.map((o) => `${o.id} (${o.title})`).join(', ');

/** `orgId` when the token's user is a member of it, else the only organization the user has. */
async function chooseOrganization(client: Client, orgId: string | undefined): Promise<string> {
  const orgs: Organization[] = [];
  for await (const org of client.orgs.list()) orgs.push(org);
  if (orgId !== undefined) {
    if (orgs.some((o) => o.id === orgId)) return orgId;
    throw new SyncError('choose-organization', `--org ${orgId}: no such organization among yours (${listing(orgs) || 'none'})`);
  }
  if (orgs.length === 1) return orgs[0]!.id;
  if (orgs.length === 0)
    throw new SyncError(
      'no-organization',
      "the token's user is a member of no organization, so no space can be created; ask an admin to add you to one",
    );
  throw new SyncError(
    'choose-organization',
    `you are a member of ${orgs.length} organizations: ${listing(orgs)}; choose one with --org <id>`,
  );
}

/** Main as the push will send it: its commit, plus uncommitted edits when it is checked out. */
async function mainAsPushed(dir: string, main: string): Promise<Map<string, Uint8Array>> {
  const files = await readTreeFiles(dir, main);
  if ((await currentBranch(dir)) !== 'main') return files;
  for (const change of await workingTreeChanges(dir)) {
    if (change.status === 'deleted') files.delete(change.path);
    else files.set(change.path, new Uint8Array(await readFile(join(dir, change.path))));
  }
  return files;
}

const NO_INDEX = { pages: {}, files: {}, includes: {} };

/**
 * Publishes a workspace `initWorkspace` made: creates its space, empty, then makes the content
 * live the way any edit on `main` goes live. The workspace is bound to the new space with `main`
 * synced to a commit of the empty space's content (`refs/docsync/remote/main`), so `push` sends
 * all of main as new pages to main's change request, `mergePushed` merges it and pulls main.
 * The result is an ordinary bound workspace, as a clone of the space would be: nothing left to
 * push or pull.
 *
 * Everything that can be checked is checked before the space is created (the organization, the
 * title, a readable page tree). The binding is written before the marker is removed, so a run
 * stopped after the space exists leaves a bound workspace whose next `docsync push --merge`
 * finishes the job, never a second space.
 */
export async function publishWorkspace(client: Client, dir: string, options: PublishOptions): Promise<PublishResult> {
  const unbound = await readUnbound(dir);
  if (unbound === undefined) {
    const state = await readState(dir).catch(() => undefined);
    if (state) throw new SyncError('already-published', `${dir} is already bound to space ${state.binding.spaceId}; use docsync push`);
    throw new SyncError(
      'not-a-workspace',
      `${dir} was not made by docsync init (no .git/docsync/unbound.json); run docsync init, or docsync clone for an existing space`,
    );
  }
  const title = checkSpaceTitle(options.title ?? unbound.title);
  const main = await branchOid(dir, 'main');
  if (main === null) throw new SyncError('no-branch', `there is no branch main in ${dir}: the workspace's content is published from main`);
  const sides = readPushSides(new Map(), toIndex(NO_INDEX), await mainAsPushed(dir, main), toIndex(NO_INDEX));
  // A SUMMARY.md entry whose file is missing waits in a later push; before a space exists, it is
  // fixed first, so that the space starts with the whole tree.
  const missing = sides.skipped.filter((s) => s.line !== undefined).map((s) => `${skippedPlace(s)}: ${s.reason}`);
  const blocking = [...sides.blocking, ...missing];
  if (blocking.length > 0) throw new SyncError('unreadable-tree', `main: the page tree cannot be read, so no space was created`, blocking);
  const orgId = await chooseOrganization(client, options.orgId);

  const space = await client.spaces.create(orgId, { title, empty: true });
  const empty = snapshotOf(await fetchContent(client, { space: space.id }));
  const synced = await commitFiles(dir, {
    branch: 'refs/docsync/remote/main',
    files: empty.files,
    message: `docsync: remote main at revision ${empty.revision} (the new space)`,
    author: DOCSYNC_AUTHOR,
  });
  await writeState(dir, {
    version: 1,
    binding: { apiUrl: options.apiUrl, spaceId: space.id },
    branches: { main: { remoteRevision: empty.revision, syncedCommit: synced, index: empty.index } },
  });
  await clearUnbound(dir);

  const pushed = await push(client, dir, {
    branch: 'main',
    subject: options.subject ?? `Initial content of ${title}`,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const result: PublishResult = {
    spaceId: space.id,
    title,
    orgId,
    url: space.urls.app,
    revision: pushed.revision ?? empty.revision,
    push: pushed,
    conflicts: [],
  };
  if (pushed.changeRequest === undefined) return result;
  result.changeRequest = { id: pushed.changeRequest.id, number: pushed.changeRequest.number, url: pushed.changeRequest.url };
  const merged = await mergePushed(client, dir, 'main');
  if (merged.kind === 'conflict') {
    throw new SyncError(
      'merge-conflicts',
      `space ${space.id} was created, but its change request #${merged.changeRequest} cannot be merged (${merged.message}); run docsync pull, then docsync push --merge`,
    );
  }
  result.revision = merged.revision;
  result.conflicts = merged.pulled.flatMap((p) => p.conflicts);
  return result;
}
