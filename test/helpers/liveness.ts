import { expect } from 'vitest';
import type { TestServer } from './server.js';

/** The bound: while an attack runs, the server answers another request within 1 s. */
export const LIVENESS_MS = 1_000;

/** The pause between two polls. */
const PAUSE_MS = 20;

/**
 * Runs `attack` while polling `GET /v1/user` back to back, and returns the attack's answer and
 * the slowest poll. A parse on the event loop would hold every poll for its whole length. The
 * server runs in this process, so a hold that starts while the poller pauses delays the pause's
 * end instead: the time from one poll's answer to the next one's, less the pause, counts too.
 */
export async function whileAttacked<T>(s: TestServer, attack: () => Promise<T>): Promise<{ result: T; slowest: number; polls: number }> {
  let done = false;
  let slowest = 0;
  let polls = 0;
  const poller = (async () => {
    let answered = performance.now();
    while (!done) {
      const started = performance.now();
      const res = await s.request('GET', '/v1/user');
      expect(res.status).toBe(200);
      const now = performance.now();
      slowest = Math.max(slowest, now - started, now - answered - PAUSE_MS);
      answered = now;
      polls += 1;
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  })();
  try {
    const result = await attack();
    return { result, slowest, polls };
  } finally {
    done = true;
    await poller;
  }
}
