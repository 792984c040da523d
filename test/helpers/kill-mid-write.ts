import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/**
 * Loaded with `--import` into a CLI child process: the first working-tree write (a path outside
 * `.git`) whose data holds `DOCSYNC_TEST_KILL_MARK` writes half its data to the path it was given,
 * then the process kills itself with SIGKILL. What a kill in the middle of writing a large file
 * leaves, made certain instead of timed.
 */
const mark = process.env.DOCSYNC_TEST_KILL_MARK;
const writeFile = fs.promises.writeFile;
if (mark !== undefined && mark !== '') {
  fs.promises.writeFile = async function (this: unknown, ...args: Parameters<typeof writeFile>) {
    const [path, data, options] = args;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data instanceof Uint8Array ? Buffer.from(data) : undefined;
    if (typeof path === 'string' && !path.includes('/.git/') && bytes?.includes(mark) === true) {
      await writeFile.call(this, path, bytes.subarray(0, bytes.length >> 1), options);
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    }
    return writeFile.apply(this, args);
  } as typeof writeFile;
  syncBuiltinESMExports();
}
