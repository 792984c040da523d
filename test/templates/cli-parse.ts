import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';

export interface Parsed {
  /** The command path, e.g. `sync` or `cr list`. */
  command: string;
  args: unknown[];
  options: Record<string, unknown>;
}

/**
 * Parses `docsync ...args` with the CLI's own commander definitions, and runs nothing: every
 * action is replaced by one that records what it was given. A usage error (unknown command or
 * option, missing or excess argument, bad choice) throws with commander's message.
 */
export async function parseDocsync(args: string[]): Promise<Parsed> {
  const program = buildProgram();
  let parsed: Parsed | undefined;
  const errors: string[] = [];
  const prepare = (command: Command) => {
    command.exitOverride();
    command.configureOutput({ writeOut: () => undefined, writeErr: (text) => void errors.push(text) });
    // Only leaves act: a command with subcommands and an action would run the action instead.
    if (command.commands.length === 0) command.action((...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      const path: string[] = [];
      for (let at: Command | null = self; at !== null && at !== program; at = at.parent) path.unshift(at.name());
      parsed = { command: path.join(' '), args: received.slice(0, -2), options: self.opts() };
    });
    for (const sub of command.commands) prepare(sub);
  };
  for (const sub of program.commands) prepare(sub);
  program.exitOverride();
  program.configureOutput({ writeOut: () => undefined, writeErr: (text) => void errors.push(text) });
  try {
    await program.parseAsync(['node', 'docsync', ...args]);
  } catch (error) {
    throw new Error(`docsync ${args.join(' ')}: ${(error as Error).message}\n${errors.join('')}`);
  }
  if (parsed === undefined) throw new Error(`docsync ${args.join(' ')}: no command ran`);
  return parsed;
}
