import type { Command } from 'commander';

/** `docsync comments [BRANCH]`, `comments reply|resolve|reopen ID` and `docsync comment FILE[:LINE]`. */
export function addCommentCommands(program: Command): void {
  const workspace = (command: Command) => command.option('--dir <dir>', 'the workspace', '.').option('--json', 'print the result as JSON');

  const comments = workspace(
    program
      .command('comments')
      .description("list the open comments of a branch's change request (main: of the space) as path:line: author: text, replies indented")
      .argument('[branch]', 'the branch (default: the checked-out branch)')
      .option('--all', 'include resolved comments'),
  ).action(async (branch: string | undefined, options) => {
    const { commentsCommand } = await import('./commands/comments.js');
    await commentsCommand(branch, options);
  });

  // `--dir` and `--json` are the parent's (commander gives a parent's options to it wherever they
  // stand), so the subcommands read them with optsWithGlobals.
  comments
    .command('reply')
    .description('reply to a comment of the checked-out branch')
    .argument('<id>', 'the comment id (the last field of a docsync comments line)')
    .requiredOption('-m, --message <text>', 'the reply (markdown)')
    .action(async (id: string, _options, command: Command) => {
      const { commentReplyCommand } = await import('./commands/comments.js');
      await commentReplyCommand(id, command.optsWithGlobals());
    });

  for (const [name, resolved, description] of [
    ['resolve', true, 'resolve a comment of the checked-out branch'],
    ['reopen', false, 'reopen a resolved comment of the checked-out branch'],
  ] as const) {
    comments
      .command(name)
      .description(description)
      .argument('<id>', 'the comment id')
      .action(async (id: string, _options, command: Command) => {
        const { commentResolveCommand } = await import('./commands/comments.js');
        await commentResolveCommand(id, resolved, command.optsWithGlobals());
      });
  }

  workspace(
    program
      .command('comment')
      .description(
        "post a comment on a page (on the block at LINE when given) in the checked-out branch's change request (main: the space)",
      )
      .argument('<file>', 'FILE or FILE:LINE, a page of the workspace')
      .requiredOption('-m, --message <text>', 'the comment (markdown)'),
  ).action(async (file: string, options) => {
    const { commentCommand } = await import('./commands/comments.js');
    await commentCommand(file, options);
  });
}
