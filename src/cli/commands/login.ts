import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { createClient } from '../../client/index.js';
import { saveCredentials } from '../../sync/index.js';
import { EXIT, ExitError } from '../exit.js';
import { printResult, type OutputOptions } from '../output.js';

/** Reads a line without echoing it: a token must not land in a terminal's scrollback. */
async function promptHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new ExitError('no token: set DOCSYNC_TOKEN, or run docsync login on a terminal', EXIT.usage);
  process.stderr.write(question);
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer.trim();
}

/** `docsync login --api URL`: checks the token against the API, then stores both (0600). */
export async function loginCommand(options: OutputOptions & { api: string }): Promise<void> {
  let url: URL;
  try {
    url = new URL(options.api);
  } catch {
    throw new ExitError(`--api must be a URL like http://127.0.0.1:8080, got "${options.api}"`, EXIT.usage);
  }
  const token = process.env.DOCSYNC_TOKEN || (await promptHidden('Token: '));
  if (token === '') throw new ExitError('no token given', EXIT.usage);
  const apiUrl = url.toString().replace(/\/+$/, '');
  const client = createClient({ baseUrl: apiUrl, token });
  try {
    const user = await client.user.get();
    const path = await saveCredentials({ apiUrl, token });
    printResult(options, `logged in to ${apiUrl} as ${user.displayName} (${user.email ?? user.id}); token stored in ${path}`, {
      apiUrl,
      user: user.id,
      credentials: path,
    });
  } finally {
    await client.close();
  }
}
