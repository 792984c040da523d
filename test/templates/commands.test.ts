import { describe, expect, it } from 'vitest';
import { parseDocsync } from './cli-parse.js';
import { cronEntries, cronShellCommand } from './cron-line.js';
import { docsyncCommands } from './shell-words.js';
import { readTemplate, readWorkflow, unitEntries } from './templates.js';

const HOME = '/home/writer';

/**
 * Every `docsync ...` command line of the service templates is one the CLI accepts: parsed by
 * the real commander definitions (buildProgram), so a renamed command or option fails here.
 */
describe('the docsync command lines in templates/', () => {
  it('systemd: ExecStart runs docsync watch on the workspace with its debounce and poll', async () => {
    const execStart = unitEntries(await readTemplate('systemd')).filter((e) => e.section === 'Service' && e.key === 'ExecStart');
    expect(execStart).toHaveLength(1);
    // %h is the only specifier the line may use (systemd.unit(5)); %% would be a literal %.
    const line = execStart[0]!.value;
    expect(line.replaceAll('%h', '').includes('%')).toBe(false);
    const commands = docsyncCommands(line.replaceAll('%h', HOME));
    expect(commands).toHaveLength(1);
    const parsed = await parseDocsync(commands[0]!);
    expect(parsed.command).toBe('watch');
    expect(parsed.args).toEqual([`${HOME}/docs`]);
    expect(String(parsed.options.debounce)).toBe('300');
    expect(String(parsed.options.poll)).toBe('10');
  });

  it('cron: the one schedule line runs docsync sync on the workspace', async () => {
    const entries = cronEntries(await readTemplate('cron'));
    expect(entries).toHaveLength(1);
    const commands = docsyncCommands(cronShellCommand(entries[0]!.command), { HOME });
    expect(commands).toHaveLength(1);
    const parsed = await parseDocsync(commands[0]!);
    expect(parsed).toMatchObject({ command: 'sync', options: { dir: `${HOME}/docs` } });
  });

  it('CI: the run steps clone the space (first run) and sync the checkout', async () => {
    const workflow = await readWorkflow();
    const found: string[] = [];
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        if (step.run === undefined) continue;
        for (const args of docsyncCommands(step.run)) {
          const parsed = await parseDocsync(args);
          found.push(parsed.command);
          if (parsed.command === 'sync') expect(parsed.options.dir).toBe('.');
          if (parsed.command === 'clone') expect(parsed.args).toEqual(['<DOCSYNC_SPACE>', '<clone>']);
        }
      }
    }
    expect(found).toEqual(['clone', 'sync']);
  });

  it('a command line the CLI does not accept fails the check', async () => {
    await expect(parseDocsync(['sync', '--dirr', '.'])).rejects.toThrow(/unknown option '--dirr'/);
    await expect(parseDocsync(['synk'])).rejects.toThrow(/unknown command 'synk'/);
    await expect(parseDocsync(['sync', 'extra'])).rejects.toThrow(/too many arguments/);
    expect(docsyncCommands('echo "docsync sync" # docsync pull\nflock -n "$L" docsync pull --dir "$D"; echo done', { D: '/w' })).toEqual([['pull', '--dir', '/w']]);
  });
});
