import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../../client/index.js';
import { locateNode } from './locate.js';
import { branchPlaces } from './places.js';

export interface CommentLine {
  id: string;
  /** `#12` (a change request) or `space`. */
  place: string;
  /** File of the commented page in the workspace, or null for a comment on no page (or a page without a file). */
  path: string | null;
  /** Where the commented block is now in that file (1 when it is gone or the comment is on the whole page). */
  line: number;
  author: string;
  text: string;
  status: 'open' | 'resolved';
  postedAt: string;
  /** The block's text when the comment was posted. */
  preview?: string;
  replies: { id: string; author: string; text: string; postedAt: string }[];
}

/**
 * The comments of a branch (see `branchPlaces`), oldest first, each placed at the line of its
 * block in the working tree's copy of the page, with its replies. Open comments only unless `all`.
 * The CLI prints each as `path:line: author: text`.
 */
export async function branchComments(
  client: Client,
  dir: string,
  options: { branch?: string; all?: boolean } = {},
): Promise<{ branch: string; comments: CommentLine[] }> {
  const { branch, places } = await branchPlaces(dir, options.branch);
  const texts = new Map<string, Promise<string | undefined>>();
  const fileText = (path: string) => {
    let text = texts.get(path);
    if (!text) texts.set(path, (text = readFile(join(dir, path), 'utf8').catch(() => undefined)));
    return text;
  };
  const comments: CommentLine[] = [];
  for (const { place, label, files } of places) {
    for await (const c of client.comments.list(place, { status: options.all ? 'all' : 'open', order: 'asc' })) {
      const path = c.target.page ? (files.get(c.target.page.id) ?? null) : null;
      const text = path === null ? undefined : await fileText(path);
      const node = c.target.node as { id: string; preview?: string } | undefined;
      const replies = [];
      if (c.replies > 0) {
        for await (const r of client.comments.replies(place, c.id)) {
          replies.push({ id: r.id, author: r.postedBy.displayName, text: r.body.markdown ?? '', postedAt: r.postedAt });
        }
      }
      comments.push({
        id: c.id,
        place: label,
        path,
        line: text === undefined ? 1 : locateNode(text, node ? { id: node.id, preview: node.preview ?? '' } : undefined),
        author: c.postedBy.displayName,
        text: c.body.markdown ?? '',
        status: c.status,
        postedAt: c.postedAt,
        ...(node?.preview !== undefined ? { preview: node.preview } : {}),
        replies,
      });
    }
  }
  comments.sort((a, b) => (a.postedAt < b.postedAt ? -1 : a.postedAt > b.postedAt ? 1 : 0));
  return { branch, comments };
}
