import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { startPreview } from '../../preview/index.js';
import { EXIT, ExitError } from '../exit.js';
import { platformSpecs } from './preview-specs.js';

export interface PreviewCommandOptions {
  port: string;
  open?: boolean;
}

/**
 * `docsync preview [dir]`: serve the folder until Ctrl-C or SIGTERM, printing its problems as
 * `file:line: message`. The signals are held from before the start, so a stop while a large
 * folder is still being read ends the start, and exits 0 like a stop afterwards.
 */
export async function previewCommand(dir: string, options: PreviewCommandOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ExitError(`--port must be a port number (0 to 65535), got "${options.port}"`, EXIT.usage);
  const folder = resolve(dir);
  if (!existsSync(folder)) throw new ExitError(`${dir}: no such folder`, EXIT.usage);
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const stopped = new Promise<void>((done) => stopping.signal.addEventListener('abort', () => done(), { once: true }));
  // A bound workspace's OpenAPI blocks render from its organization's specs on the platform.
  const specs = await platformSpecs(folder);
  try {
    const preview = await startPreview({
      dir: folder,
      port,
      signal: stopping.signal,
      ...(specs ? { specs: specs.resolve } : {}),
      onProblems: (lines) => lines.forEach((line) => console.error(line)),
    }).catch((error: unknown) => {
      if (stopping.signal.aborted) return undefined;
      throw error;
    });
    if (preview === undefined) return;
    console.log(`preview of ${folder} on ${preview.url} (Ctrl-C to stop)`);
    if (options.open) {
      const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
      spawn(opener, [preview.url], { stdio: 'ignore', detached: true })
        .on('error', () => console.error(`preview: could not run ${opener}; open ${preview.url} yourself`))
        .unref();
    }
    await stopped;
    await preview.close();
  } finally {
    await specs?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
