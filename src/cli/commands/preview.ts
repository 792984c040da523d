import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { startPreview } from '../../preview/index.js';
import { EXIT, ExitError } from '../exit.js';

export interface PreviewCommandOptions {
  port: string;
  open?: boolean;
}

/** `docsync preview [dir]`: serve the folder until Ctrl-C, printing its problems as `file:line: message`. */
export async function previewCommand(dir: string, options: PreviewCommandOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ExitError(`--port must be a port number (0 to 65535), got "${options.port}"`, EXIT.usage);
  const folder = resolve(dir);
  if (!existsSync(folder)) throw new ExitError(`${dir}: no such folder`, EXIT.usage);
  const preview = await startPreview({ dir: folder, port, onProblems: (lines) => lines.forEach((line) => console.error(line)) });
  console.log(`preview of ${folder} on ${preview.url} (Ctrl-C to stop)`);
  if (options.open) {
    const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    spawn(opener, [preview.url], { stdio: 'ignore', detached: true })
      .on('error', () => console.error(`preview: could not run ${opener}; open ${preview.url} yourself`))
      .unref();
  }
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      preview.close().then(done, done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
