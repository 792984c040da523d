import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { isApiError, type Client } from '../../client/index.js';
import { DocsyncError, type Comment, type CommentReply } from '../../model/index.js';
import { blockAtLine } from './locate.js';
import { branchPlaces, type BranchPlace } from './places.js';

export interface PostedComment {
  comment: Comment;
  place: string;
  /** The block commented on, or undefined for the whole page. */
  block?: { id: string; text: string; line: number };
  /** Set when the block is not on the server yet (not pushed): the comment went on the page instead. */
  blockNotPushed?: boolean;
}

/**
 * Posts a comment on the page in `file` (a path in the workspace), on the block at `line` when
 * given, in the branch's change request (`main`: the space). The block is named by its node id,
 * computed from the working tree's text; a block the server does not have yet (edited and not
 * pushed) gets the comment on its page instead, and the answer says so.
 */
export async function postComment(
  client: Client,
  dir: string,
  input: { file: string; line?: number; text: string; branch?: string },
): Promise<PostedComment> {
  const { places } = await branchPlaces(dir, input.branch);
  const target = places[places.length - 1]!;
  const path = relative(resolve(dir), resolve(dir, input.file)).split('\\').join('/');
  const pageId = pageOf(target, path) ?? pageOf(places[0]!, path);
  if (pageId === undefined) throw new DocsyncError('not_found', `${input.file} is not a page of this space as last synced (push it first)`);
  let block: PostedComment['block'];
  if (input.line !== undefined) {
    const text = await readFile(join(dir, path), 'utf8').catch(() => {
      throw new DocsyncError('not_found', `${input.file}: no such file`);
    });
    block = blockAtLine(text, input.line);
  }
  const markdown = input.text;
  if (markdown.trim() === '') throw new DocsyncError('invalid_request', 'the comment text is empty');
  try {
    const comment = await client.comments.post(target.place, { markdown, page: pageId, ...(block ? { node: block.id } : {}) });
    return { comment, place: target.label, ...(block ? { block } : {}) };
  } catch (error) {
    if (!block || !isApiError(error) || error.status !== 400 || !/node/.test(error.message)) throw error;
    const comment = await client.comments.post(target.place, { markdown, page: pageId });
    return { comment, place: target.label, block, blockNotPushed: true };
  }
}

function pageOf(place: BranchPlace, path: string): string | undefined {
  for (const [id, file] of place.files) if (file === path) return id;
  return undefined;
}

/** Finds a comment by id among the branch's places; its place is needed for every later call. */
async function findComment(client: Client, dir: string, id: string, branch?: string): Promise<{ place: BranchPlace; comment: Comment }> {
  const { branch: name, places } = await branchPlaces(dir, branch);
  for (const place of places) {
    try {
      return { place, comment: await client.comments.get(place.place, id) };
    } catch (error) {
      if (!isApiError(error) || error.status !== 404) throw error;
    }
  }
  throw new DocsyncError('not_found', `comment ${id} not found on ${name} (docsync comments --all lists them)`);
}

/** Replies to a comment of the branch. */
export async function replyToComment(client: Client, dir: string, id: string, text: string, branch?: string): Promise<CommentReply> {
  if (text.trim() === '') throw new DocsyncError('invalid_request', 'the reply text is empty');
  const { place } = await findComment(client, dir, id, branch);
  return client.comments.reply(place.place, id, text);
}

/** Resolves (or reopens) a comment of the branch. */
export async function setCommentResolved(client: Client, dir: string, id: string, resolved: boolean, branch?: string): Promise<Comment> {
  const { place } = await findComment(client, dir, id, branch);
  return client.comments.setResolved(place.place, id, resolved);
}
