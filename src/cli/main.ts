import { Command, Option } from 'commander';
import { CHANGE_REQUEST_STATUSES } from '../model/index.js';
import { EXIT, reportFailure } from './exit.js';
import { addCommentCommands } from './comment-commands.js';

const DEFAULT_DATA_DIR = './.docsync-data';
/** `docsync serve`'s API limit per token: generous for people and the sync tool, a wall for a runaway script. */
const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;

/** The options every `docsync admin` leaf command shares: where the store is and how to print. */
function storeCommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .option('--data <dir>', 'data directory of the embedded SQLite store (ignored when DOCSYNC_DATABASE_URL is set)', DEFAULT_DATA_DIR)
    .option('--json', 'print the result as one line of JSON');
}

/** `docsync admin ...`: users, organizations, memberships and tokens straight in the store. */
function addAdminCommands(program: Command): void {
  const admin = program.command('admin').description('manage users, organizations, members and tokens in the server store directly');

  const user = admin.command('user').description('manage users');
  storeCommand(user, 'create', 'create a user')
    .requiredOption('--email <email>', 'e-mail address of the user (unique)')
    .requiredOption('--name <name>', 'display name of the user')
    .action(async (options) => {
      const { adminUserCreate } = await import('./commands/admin-user.js');
      await adminUserCreate(options);
    });

  const org = admin.command('org').description('manage organizations');
  storeCommand(org, 'create', 'create an organization with an admin member')
    .requiredOption('--title <title>', 'title of the organization (2 to 255 characters)')
    .requiredOption('--owner <email>', 'e-mail address of the user who becomes its admin')
    .action(async (options) => {
      const { adminOrgCreate } = await import('./commands/admin-org.js');
      await adminOrgCreate(options);
    });

  const member = admin.command('member').description('manage organization members');
  storeCommand(member, 'add', 'add a user to an organization, or change their role there')
    .requiredOption('--org <id>', 'id of the organization')
    .requiredOption('--email <email>', 'e-mail address of the user')
    .requiredOption('--role <role>', 'admin, create, review, edit, comment, read, or guest')
    .action(async (options) => {
      const { adminMemberAdd } = await import('./commands/admin-member.js');
      await adminMemberAdd(options);
    });

  const invite = admin.command('invite').description('manage invite links to organizations');
  storeCommand(invite, 'create', 'create an invite link to an organization whose invite links are on')
    .requiredOption('--org <id>', 'id of the organization')
    .requiredOption('--role <role>', 'role of those who join: admin, create, review, edit, comment, read, or guest')
    .action(async (options) => {
      const { adminInviteCreate } = await import('./commands/admin-invite.js');
      await adminInviteCreate(options);
    });

  const token = admin.command('token').description('manage API tokens');
  storeCommand(token, 'create', 'create an API token for a user and print it (only once)')
    .requiredOption('--email <email>', 'e-mail address of the user the token acts as')
    .option('--label <label>', 'a note to tell the token apart in `admin token list`')
    .action(async (options) => {
      const { adminTokenCreate } = await import('./commands/admin-token.js');
      await adminTokenCreate(options);
    });
  storeCommand(token, 'revoke', 'revoke a token, given its id or the token itself')
    .argument('<token-or-id>', 'the token id (from `admin token list`) or the token')
    // Ids are base64url and one in 64 starts with "-"; commander would take it for an option.
    .allowUnknownOption()
    .action(async (idOrToken: string, options) => {
      const { adminTokenRevoke } = await import('./commands/admin-token.js');
      await adminTokenRevoke(idOrToken, options);
    });
  storeCommand(token, 'list', "list a user's tokens: ids, labels and dates, never the tokens")
    .requiredOption('--email <email>', 'e-mail address of the user')
    .action(async (options) => {
      const { adminTokenList } = await import('./commands/admin-token.js');
      await adminTokenList(options);
    });
}

function addSyncCommands(program: Command): void {
  program
    .command('login')
    .description('store the API URL and a token (from DOCSYNC_TOKEN or a hidden prompt) for the sync commands')
    .requiredOption('--api <url>', 'API base URL, e.g. http://127.0.0.1:8080')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const { loginCommand } = await import('./commands/login.js');
      await loginCommand(options);
    });

  program
    .command('clone')
    .description('clone a space into a new git repository: main is the live content, a branch per open change request')
    .argument('<space>', 'space id or its app URL')
    .argument('[dir]', 'folder to create (default: the space title as a slug)')
    .option('--json', 'print the result as JSON')
    .action(async (space: string, dir: string | undefined, options) => {
      const { cloneCommand } = await import('./commands/clone.js');
      await cloneCommand(space, dir, options);
    });

  program
    .command('init')
    .description('make a new workspace in DIR from the starter template, with no space yet: the first docsync push creates it')
    .argument('<dir>', 'folder to create (it must not exist, or be empty)')
    .option('--title <title>', 'title of the space the first push creates (default: the folder name)')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, options) => {
      const { initCommand } = await import('./commands/init.js');
      await initCommand(dir, options);
    });

  program
    .command('pull')
    .description('bring main and every tracked change request branch to the remote head, merging into local work')
    .option('--dir <dir>', 'the workspace', '.')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const { pullCommand } = await import('./commands/pull.js');
      await pullCommand(options);
    });

  program
    .command('status')
    .description('what the daemon is doing, then per branch: local changes not yet pushed, remote changes not yet pulled')
    .option('--dir <dir>', 'the workspace', '.')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const { statusCommand } = await import('./commands/status.js');
      await statusCommand(options);
    });

  program
    .command('doctor')
    .description('which server the workspace talks to, whether it answers and to whom, its extensions, and what cannot round-trip there')
    .option('--dir <dir>', 'the workspace (outside one: the login alone)', '.')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      await doctorCommand(options);
    });

  addChangeRequestCommands(program);
  addPushCommands(program);
}

/** `docsync push`, `sync` and `mirror`: local changes to change requests. */
function addPushCommands(program: Command): void {
  program
    .command('push')
    .description("send a branch's changes since the last sync to its change request (opening one when it has none)")
    .argument('[branch]', 'the branch to push (default: the checked-out branch; commits on main go to a change request of their own)')
    .option('--subject <subject>', 'subject of the change request the push opens (default: the first commit message, else the branch name)')
    .option('--merge', 'merge the change request right after the push, then pull main')
    .option('--dry-run', 'print the page operations the push would send, and send nothing')
    .option('--allow-mass-delete', 'allow a push that deletes more than half of the pages, or all of them')
    .option(
      '--force',
      "push even when the branch no longer holds the platform's changes a pull brought in (after a git reset): the push undoes them",
    )
    .option('--org <id>', 'first push of a workspace docsync init made: the organization to create its space in (default: your only one)')
    .option('--dir <dir>', 'the workspace', '.')
    .option('--json', 'print the result as JSON')
    .action(async (branch: string | undefined, options) => {
      const { pushCommand } = await import('./commands/push.js');
      await pushCommand(branch, options);
    });

  program
    .command('sync')
    .description('one full pass for cron and CI: pull every branch, then push every branch with local changes')
    .option('--dry-run', 'print the page operations each push would send; pull nothing and send nothing')
    .option('--allow-mass-delete', 'allow pushes that delete more than half of the pages, or all of them')
    .option('--dir <dir>', 'the workspace', '.')
    .option('--json', 'print the result as JSON')
    .action(async (options) => {
      const { syncCommand } = await import('./commands/sync.js');
      await syncCommand(options);
    });

  program
    .command('up')
    .description(
      'everything on this machine: the embedded server, a sample space on the first run, its workspace, and the daemon watching it (what npm start runs)',
    )
    .option(
      '--data <dir>',
      'data folder of the embedded server (SQLite, its admin token); unused when DOCSYNC_API_URL is set',
      DEFAULT_DATA_DIR,
    )
    .option('--workspace <dir>', 'the workspace to watch: kept when there, else cloned or made from the sample', './docs-workspace')
    .option('--host <host>', 'address the embedded server listens on', '127.0.0.1')
    .option('--port <port>', "port of the embedded server (default: last run's, else 8080; a taken port falls back to a free one)")
    .option('--debounce <ms>', 'as for watch', '300')
    .option('--poll <seconds>', 'as for watch', '10')
    .option('--json', 'print one JSON line for the start and per event')
    .action(async (options) => {
      const { upCommand } = await import('./commands/up.js');
      await upCommand(options);
    });

  program
    .command('watch')
    .description('the daemon: commit and push saves as they happen, pull what changes on the platform, until Ctrl-C')
    .argument('[dir]', 'the workspace', '.')
    .option('--debounce <ms>', 'quiet time after the last save before committing a burst of saves', '300')
    .option('--poll <seconds>', 'how often to compare the remote heads with the last sync', '10')
    .option('--json', 'print one JSON line per event')
    .action(async (dir: string, options) => {
      const { watchCommand } = await import('./commands/watch.js');
      await watchCommand(dir, options);
    });

  program
    .command('mirror')
    .description('every space of an organization as a workspace in DIR/<space-slug>/: cloned, pulled, and with --push pushed')
    .argument('<dir>', 'the folder that holds one workspace per space')
    .requiredOption('--org <id>', 'id of the organization')
    .option('--push', 'push local changes of every workspace too (a sync pass each)')
    .option('--allow-mass-delete', 'allow pushes that delete more than half of a space, or all of it')
    .option('--watch', "keep running: follow the organization's event stream (polling without it) and bring each changed space up to date")
    .option('--poll <seconds>', 'with --watch: seconds between passes over every space while the server streams no events (default: 10)')
    .option('--json', 'print the result as JSON (with --watch: one JSON event per line)')
    .action(async (dir: string, options) => {
      const { mirrorCommand } = await import('./commands/mirror.js');
      await mirrorCommand(dir, options);
    });
}

/** `docsync merge`, `update` and `cr ...`: change requests through the API, then a pull. */
function addChangeRequestCommands(program: Command): void {
  const workspace = (command: Command) => command.option('--dir <dir>', 'the workspace', '.').option('--json', 'print the result as JSON');

  workspace(
    program
      .command('merge')
      .description("merge a branch's change request into the live content on the platform, then pull main")
      .argument('[branch]', 'the change request branch (default: the checked-out branch)'),
  ).action(async (branch: string | undefined, options) => {
    const { mergeCommand } = await import('./commands/merge.js');
    await mergeCommand(branch, options);
  });

  workspace(
    program
      .command('update')
      .description("bring main's live content into a branch's change request on the platform, then pull the branch")
      .argument('[branch]', 'the change request branch (default: the checked-out branch)'),
  ).action(async (branch: string | undefined, options) => {
    const { updateCommand } = await import('./commands/update.js');
    await updateCommand(branch, options);
  });

  const cr = program.command('cr').description("list the space's change requests; open or archive one");
  workspace(
    cr
      .command('list')
      .description('list change requests of one status with their local branch (- when none)')
      .addOption(new Option('--status <status>', 'which change requests').choices(CHANGE_REQUEST_STATUSES).default('open')),
  ).action(async (options) => {
    const { crListCommand } = await import('./commands/cr.js');
    await crListCommand(options);
  });
  for (const [name, status, description] of [
    ['open', 'open', 'open a change request again (status open) and follow its branch again, pulling it'],
    ['archive', 'archived', 'archive a change request (status archived) and stop following its branch; the git branch stays'],
  ] as const) {
    workspace(
      cr.command(name).description(description).argument('<branch>', 'the change request branch, or the change request number (12 or #12)'),
    ).action(async (target: string, options) => {
      const { crStatusCommand } = await import('./commands/cr.js');
      await crStatusCommand(target, status, options);
    });
  }
}

/**
 * The docsync program. Each action imports its command lazily, so `docsync --help` and the sync
 * verbs never load the server's dependencies.
 */
export function buildProgram(): Command {
  const program = new Command('docsync')
    .description('Keep documentation in git and in a documentation platform at the same time.')
    .version('0.1.0')
    .showHelpAfterError();

  program
    .command('preview')
    .description('serve the workspace as readers will see it, on 127.0.0.1, updated live as you save')
    .argument('[dir]', 'the workspace folder', '.')
    .option('--port <port>', 'port to listen on (a free one when it is taken; 0 picks a free one)', '4000')
    .option('--open', 'open the preview in the default browser')
    .action(async (dir: string, options) => {
      const { previewCommand } = await import('./commands/preview.js');
      await previewCommand(dir, options);
    });

  program
    .command('serve')
    .description('run the documentation platform API server')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free port)', '8080')
    .option('--data <dir>', 'data directory for the embedded SQLite store', DEFAULT_DATA_DIR)
    .option('--public-url <url>', 'absolute base URL used in `urls` of responses (default: from each request)')
    .option('--allow-private-fetch', 'let the server fetch URLs on loopback and private addresses (file uploads by URL, imports)')
    .option('--log-level <level>', 'least severe log lines written to stdout: trace, debug, info, warn, error, fatal or silent', 'info')
    .option('--rate-limit <n>', 'API requests each token may make per minute (0: no limit)', String(DEFAULT_RATE_LIMIT_PER_MINUTE))
    .action(async (options) => {
      const { serveCommand } = await import('./commands/serve.js');
      await serveCommand(options);
    });

  addAdminCommands(program);
  addSyncCommands(program);
  addCommentCommands(program);
  return program;
}

/**
 * Commander copies `exitOverride` only to subcommands created after it is set, so it is set on
 * the whole tree here; otherwise a usage error in a subcommand would call `process.exit`.
 */
function overrideExits(command: Command): Command {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
  return command;
}

/** Runs the program; returns the exit code instead of exiting, so tests can call it. */
export async function main(argv: string[]): Promise<number> {
  try {
    await overrideExits(buildProgram()).parseAsync(argv);
    return 0;
  } catch (error) {
    const exit = error as { exitCode?: unknown; code?: unknown };
    if (typeof exit.code === 'string' && exit.code.startsWith('commander.') && typeof exit.exitCode === 'number') {
      // Commander has printed its message already; a usage error gets the usage exit code.
      return exit.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportFailure(error);
  }
}
