import type { Clock } from '../../src/server/util/clock.js';

/** A clock tests can move forward; it starts at the real time. */
export class TestClock implements Clock {
  #offset = 0;
  now(): Date {
    return new Date(Date.now() + this.#offset);
  }
  advance(ms: number): void {
    this.#offset += ms;
  }
}
