import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../../client/index.js';
import { readState } from '../state/state.js';
import { locateNode } from './locate.js';
import { branchPlaces, type BranchPlace } from './places.js';

/** A comment or a reply that appeared on a followed branch's change request (or the space) since the last look. */
export interface ArrivedComment {
  branch: string;
  /** `#12` or `space`. */
  place: string;
  id: string;
  /** For a reply: the comment it answers. */
  replyTo?: string;
  /** The commented page's file and the line of its block now (see `locateNode`); null for a comment on no page. */
  path: string | null;
  line: number;
  author: string;
  text: string;
}

/**
 * What a feed has seen: each comment with its reply count and, once they were fetched, its reply
 * ids. The first look only fills it (what was there before the daemon started is not news;
 * `docsync comments` lists it), every later look answers what is new.
 */
export interface CommentFeed {
  primed: boolean;
  comments: Map<string, { replies: number; replyIds?: Set<string> }>;
}

export const newCommentFeed = (): CommentFeed => ({ primed: false, comments: new Map() });

/**
 * Comments and replies posted since the feed's last look, on every followed (not closed)
 * branch's places. One listing per place per look; replies are fetched only for comments whose
 * reply count grew. Resolved comments are not news.
 */
export async function arrivedComments(client: Client, dir: string, feed: CommentFeed): Promise<ArrivedComment[]> {
  const state = await readState(dir);
  const arrived: ArrivedComment[] = [];
  const looked = new Set<string>();
  const texts = new Map<string, Promise<string | undefined>>();
  const fileText = (path: string) => {
    let text = texts.get(path);
    if (!text) texts.set(path, (text = readFile(join(dir, path), 'utf8').catch(() => undefined)));
    return text;
  };
  for (const [branch, synced] of Object.entries(state.branches)) {
    if (synced.closed !== undefined) continue;
    const { places } = await branchPlaces(dir, branch);
    for (const place of places) {
      const key = `${place.place.space}/${String(place.place.changeRequest ?? '')}`;
      if (looked.has(key)) continue;
      looked.add(key);
      arrived.push(...(await lookAt(client, branch, place, feed, fileText)));
    }
  }
  feed.primed = true;
  return arrived;
}

async function lookAt(
  client: Client,
  branch: string,
  where: BranchPlace,
  feed: CommentFeed,
  fileText: (path: string) => Promise<string | undefined>,
): Promise<ArrivedComment[]> {
  const { place, label } = where;
  const arrived: ArrivedComment[] = [];
  for await (const c of client.comments.list(place, { status: 'open', order: 'asc' })) {
    // `where.files` is made when first read: only for a comment on a page.
    const path = c.target.page ? (where.files.get(c.target.page.id) ?? null) : null;
    const text = path === null ? undefined : await fileText(path);
    const node = c.target.node as { id: string; preview?: string } | undefined;
    const line = text === undefined ? 1 : locateNode(text, node ? { id: node.id, preview: node.preview ?? '' } : undefined);
    const seen = feed.comments.get(c.id);
    const entry: { replies: number; replyIds?: Set<string> } = {
      replies: c.replies,
      ...(seen?.replyIds ? { replyIds: seen.replyIds } : {}),
    };
    feed.comments.set(c.id, entry);
    if (!feed.primed) continue;
    const at = { branch, place: label, path, line };
    if (seen === undefined) arrived.push({ ...at, id: c.id, author: c.postedBy.displayName, text: c.body.markdown ?? '' });
    if (c.replies === (seen?.replies ?? 0)) continue;
    // The count moved: fetch the replies and report those not seen. Replies come oldest first, so
    // for a comment whose replies were never fetched the first `seen.replies` are the old ones.
    const ids = new Set<string>();
    for await (const r of client.comments.replies(place, c.id)) {
      const old = seen?.replyIds ? seen.replyIds.has(r.id) : ids.size < (seen?.replies ?? 0);
      ids.add(r.id);
      if (!old) arrived.push({ ...at, id: r.id, replyTo: c.id, author: r.postedBy.displayName, text: r.body.markdown ?? '' });
    }
    entry.replyIds = ids;
  }
  return arrived;
}
