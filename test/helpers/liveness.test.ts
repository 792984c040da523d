import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcedWork } from '../../src/server/util/work-channel.js';
import { whileAttacked } from './liveness.js';
import { startServer, type TestServer } from './server.js';

/** A fixed amount of CPU work, counted in steps rather than time. */
function spin(steps: number): number {
  let x = 0;
  for (let i = 0; i < steps; i += 1) x = (x * 31 + i) % 1_000_003;
  return x;
}

// The liveness proof the hostile-input tests rely on must tell work that holds the event loop from
// work that lets it turn, whatever the machine's speed: a count of polls, not a time.
describe('whileAttacked', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('counts no poll answered during work that holds the event loop, however long it runs', async () => {
    // A poll answered first, so the poller is running when the held work starts (a wait on the
    // answer, not a sleep: at load 9 a 50 ms sleep let none through).
    const outcome = await whileAttacked(s, async ({ firstAnswer }) => {
      await firstAnswer;
      return announcedWork('held', async () => spin(30_000_000));
    });
    expect(outcome.works).toBe(1);
    expect(outcome.answeredDuringAttack).toBeGreaterThan(0);
    expect(outcome.answeredDuringWork).toBe(0);
  });

  it('counts polls answered during work that waits between its steps', async () => {
    const outcome = await whileAttacked(s, () =>
      announcedWork('stepped', async () => {
        // Each step yields to timers: 40 steps of at least 5 ms outlast several of the poller's 5 ms pauses.
        for (let i = 0; i < 40; i += 1) {
          spin(10_000);
          await sleep(5);
        }
      }),
    );
    expect(outcome.works).toBe(1);
    expect(outcome.answeredDuringWork).toBeGreaterThan(0);
  });

  it('counts no work when none is announced', async () => {
    const outcome = await whileAttacked(s, () => sleep(30));
    expect(outcome.works).toBe(0);
    expect(outcome.answeredDuringWork).toBe(0);
  });
});
