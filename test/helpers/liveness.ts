import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { expect } from 'vitest';
import { WORK_CHANNEL, type WorkEvent } from '../../src/server/util/work-channel.js';
import type { TestServer } from './server.js';

/** The pause between two polls: short beside any work a test announces (tens of ms at least). */
const PAUSE_MS = 5;

export interface AttackOutcome<T> {
  result: T;
  /** Stretches of work the server announced on its work channel while the attack ran. */
  works: number;
  /** Polls answered while announced work was under way: none when that work holds the event loop. */
  answeredDuringWork: number;
  /** Polls answered between the attack's start and its answer, work or not. */
  answeredDuringAttack: number;
  /** The slowest poll, in ms: reported, never asserted (npm run bench measures it). */
  slowest: number;
}

/**
 * Runs `attack` while polling `GET /v1/user`, and counts the polls answered while the server had
 * announced work under way (src/server/util/work-channel.ts). The server runs in this process, so
 * work that holds the event loop from its start to its end lets no poll's answer in between,
 * however fast or loaded the machine: a count above zero proves the loop turned during the work,
 * by order, where a bound in milliseconds failed on a loaded machine and passed a slow fault on a
 * fast one.
 */
export async function whileAttacked<T>(
  s: TestServer,
  /** `firstAnswer` resolves once a poll has been answered: an attack that needs the poller running waits on it. */
  attack: (poller: { firstAnswer: Promise<void> }) => Promise<T>,
): Promise<AttackOutcome<T>> {
  let answered: () => void = () => undefined;
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  let open = 0;
  let works = 0;
  let answeredDuringWork = 0;
  let answeredDuringAttack = 0;
  let slowest = 0;
  let attacking = true;
  const onWork = (message: unknown) => {
    const { phase } = message as WorkEvent;
    if (phase === 'start') {
      open += 1;
      works += 1;
    } else open -= 1;
  };
  subscribe(WORK_CHANNEL, onWork);
  const poller = (async () => {
    while (attacking) {
      const started = performance.now();
      const res = await s.request('GET', '/v1/user');
      expect(res.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      if (open > 0) answeredDuringWork += 1;
      if (attacking) answeredDuringAttack += 1;
      answered();
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  })();
  try {
    const result = await attack({ firstAnswer });
    return { result, works, answeredDuringWork, answeredDuringAttack, slowest };
  } finally {
    attacking = false;
    unsubscribe(WORK_CHANNEL, onWork);
    await poller;
  }
}

/** The attack's work was announced, and other requests were answered while it ran. */
export function expectAnsweredDuringWork(outcome: Pick<AttackOutcome<unknown>, 'works' | 'answeredDuringWork'>): void {
  expect(outcome.works, 'the server announced no work: did the work move off runParse or readZip?').toBeGreaterThan(0);
  expect(outcome.answeredDuringWork, 'no poll was answered while the work ran: it held the event loop').toBeGreaterThan(0);
}
