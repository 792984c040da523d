import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exit.js';

const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

interface Node {
  path: string;
  command: Command;
  ancestors: string[];
}

/** Every command under the program with its space-separated path ("admin token create"). */
function walk(command: Command, prefix: string[] = []): Node[] {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    const ancestors = path.map((_, i) => path.slice(0, i).join(' '));
    return [{ path: path.join(' '), command: sub, ancestors }, ...walk(sub, path)];
  });
}

/**
 * The text under each "## `docsync <path>`" heading up to the next heading of any level, keyed by
 * path; '' holds the text before the first heading (the program's own options).
 */
function sections(markdown: string): Map<string, string> {
  const result = new Map<string, string>();
  let key: string | undefined = '';
  let text: string[] = [];
  const flush = () => {
    if (key !== undefined) result.set(key, text.join('\n'));
  };
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading && !(line.startsWith('# ') && key === '')) {
      flush();
      key = /^`docsync ([a-z -]+)`$/.exec(heading[1]!)?.[1];
      text = [];
    } else {
      text.push(line);
    }
  }
  flush();
  return result;
}

const program = buildProgram();
const commands = walk(program);
const docSections = sections(doc);
const mentions = (text: string | undefined, flag: string) =>
  text !== undefined && new RegExp('`' + flag.replace(/[-]/g, '\\-') + '[ `]').test(text);

describe('docs/cli.md', () => {
  it('finds the commands it checks', () => {
    expect(commands.map((c) => c.path)).toEqual(expect.arrayContaining(['serve', 'admin', 'admin token create', 'admin token revoke']));
  });

  it.each(commands.map((c) => [c.path, c] as const))('documents `docsync %s`', (path, node) => {
    expect(doc).toContain(`docsync ${path}`);
    // A command that runs something (no subcommands) has its own section.
    if (node.command.commands.length === 0) expect([...docSections.keys()]).toContain(path);
  });

  const options = [
    ...program.options.map((option) => ['', option.long!, [] as string[]] as const),
    ...commands.flatMap((node) => node.command.options.map((option) => [node.path, option.long!, node.ancestors] as const)),
  ];
  it.each(options)('documents `docsync %s` option %s', (path, flag, ancestors) => {
    expect(flag).toMatch(/^--/);
    // An option shared by a group (--data of every admin command) may be documented once for the group.
    const where = [path, ...ancestors].filter((key) => mentions(docSections.get(key), flag));
    expect(where, `${flag} of "docsync ${path}" is not in its section of docs/cli.md`).not.toEqual([]);
  });

  it('documents no command that does not exist', () => {
    const real = new Set(commands.map((c) => c.path));
    expect([...docSections.keys()].filter((key) => key !== '' && !real.has(key))).toEqual([]);
  });

  it('lists every exit code', () => {
    for (const code of Object.values(EXIT)) expect(doc).toMatch(new RegExp(`^\\| ${code} \\| \\S`, 'm'));
  });

  it('docs/server.md covers every `docsync serve` flag and the server variables', () => {
    const server = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8');
    const serve = commands.find((c) => c.path === 'serve')!.command;
    for (const option of serve.options) expect(mentions(server, option.long!), option.long).toBe(true);
    for (const name of ['DOCSYNC_DATABASE_URL', 'DOCSYNC_BOOTSTRAP_TOKEN']) expect(server).toContain(`\`${name}\``);
  });

  it('names the environment variables the CLI reads', () => {
    for (const name of ['DOCSYNC_DATABASE_URL', 'DOCSYNC_BOOTSTRAP_TOKEN', 'DOCSYNC_DATABASE_SCHEMA']) expect(doc).toContain(`\`${name}\``);
  });
});
