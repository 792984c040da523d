import { Command } from 'commander';
import { reportFailure } from './exit.js';

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
    .command('serve')
    .description('run the documentation platform API server')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free port)', '8080')
    .option('--data <dir>', 'data directory for the embedded SQLite store', './.docsync-data')
    .option('--public-url <url>', 'absolute base URL used in `urls` of responses (default: from each request)')
    .action(async (options) => {
      const { serveCommand } = await import('./commands/serve.js');
      await serveCommand(options);
    });

  return program;
}

/** Runs the program; returns the exit code instead of exiting, so tests can call it. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().exitOverride().parseAsync(argv);
    return 0;
  } catch (error) {
    const exit = (error as { exitCode?: unknown; code?: unknown });
    if (typeof exit.code === 'string' && exit.code.startsWith('commander.') && typeof exit.exitCode === 'number') {
      return exit.exitCode;
    }
    return reportFailure(error);
  }
}
