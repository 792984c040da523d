import { resolve } from 'node:path';
import { branchComments, postComment, replyToComment, setCommentResolved, type CommentLine } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';
import { clientForWorkspace } from './sync-client.js';

type Options = OutputOptions & { dir?: string };

/** One line of text: editors' quickfix lists take a line per entry. */
const oneLine = (text: string) => text.trim().replace(/\s*\n\s*/g, ' ⏎ ');

/** `path:line: author: text [id]`, the format vim's quickfix and VS Code's problem matchers read. */
function commentLines(c: CommentLine): string[] {
  const where = c.path === null ? `(${c.place})` : `${c.path}:${c.line}`;
  const status = c.status === 'resolved' ? '(resolved) ' : '';
  return [`${where}: ${c.author}: ${status}${oneLine(c.text)} [${c.id}]`, ...c.replies.map((r) => `    ${r.author}: ${oneLine(r.text)}`)];
}

async function withClient<T>(dir: string, fn: (client: Awaited<ReturnType<typeof clientForWorkspace>>) => Promise<T>): Promise<T> {
  const client = await clientForWorkspace(dir);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** `docsync comments [BRANCH]`: the branch's open comments (all with --all), at their lines now. */
export async function commentsCommand(branch: string | undefined, options: Options & { all?: boolean }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const result = await withClient(dir, (client) =>
    branchComments(client, dir, { ...(branch !== undefined ? { branch } : {}), all: options.all === true }),
  );
  if (options.json) {
    console.log(JSON.stringify(result.comments));
    return;
  }
  if (result.comments.length === 0) console.log(`no ${options.all ? '' : 'open '}comments on ${result.branch}`);
  for (const c of result.comments) for (const line of commentLines(c)) console.log(line);
}

/** `docsync comment FILE[:LINE] -m TEXT`. */
export async function commentCommand(target: string, options: Options & { message: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const match = /^(.*?):([0-9]+)$/.exec(target);
  const file = match ? match[1]! : target;
  const line = match ? Number(match[2]) : undefined;
  if (line === 0) throw new ExitError(`${target}: lines count from 1`, EXIT.usage);
  const posted = await withClient(dir, (client) =>
    postComment(client, dir, { file, ...(line !== undefined ? { line } : {}), text: options.message }),
  );
  const on = posted.block === undefined ? file : `${file}:${posted.block.line}`;
  const note = posted.blockNotPushed ? ` (on the page: the block at line ${posted.block!.line} is not pushed yet)` : '';
  printResult(options, `commented on ${on} in ${posted.place}${note} [${posted.comment.id}]`, posted);
}

/** `docsync comments reply ID -m TEXT`. */
export async function commentReplyCommand(id: string, options: Options & { message: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const reply = await withClient(dir, (client) => replyToComment(client, dir, id, options.message));
  printResult(options, `replied to ${id} [${reply.id}]`, reply);
}

/** `docsync comments resolve ID` and `docsync comments reopen ID`. */
export async function commentResolveCommand(id: string, resolved: boolean, options: Options): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const comment = await withClient(dir, (client) => setCommentResolved(client, dir, id, resolved));
  printResult(options, `${resolved ? 'resolved' : 'reopened'} ${id}`, comment);
}
