// A process racing for daemon locks (run by lock.test.ts with `node --import tsx`). It loads the
// module, says "ready", then for each line `go <dir>` on stdin tries once and prints one JSON
// line; a lock it won is held until the line `release`, so that a loser never finds it dead.
import { createInterface } from 'node:readline';
import { acquireDaemonLock, DaemonLockedError, type DaemonLock } from '../../src/daemon/lock.js';

const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
let held: DaemonLock | undefined;

say({ ready: process.pid });
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'release') {
    await held?.release();
    held = undefined;
    say({ released: process.pid });
    continue;
  }
  try {
    held = await acquireDaemonLock(line.slice('go '.length));
    say({ result: 'won', pid: process.pid });
  } catch (error) {
    if (error instanceof DaemonLockedError) say({ result: 'locked', pid: process.pid, holder: error.holder });
    else say({ result: 'error', pid: process.pid, message: String(error) });
  }
}
