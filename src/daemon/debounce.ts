/**
 * Gathers the paths of a burst of file events and hands them over once the burst has settled:
 * `quietMs` after the last event, or `maxWaitMs` after the first when events never stop (a
 * build writing files in a loop must not hold saves back for ever).
 */
export class Debouncer {
  readonly #quietMs: number;
  readonly #maxWaitMs: number;
  readonly #flush: (paths: string[]) => void;
  #paths = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #firstAt = 0;

  constructor(options: { quietMs: number; maxWaitMs?: number; flush: (paths: string[]) => void }) {
    if (!Number.isFinite(options.quietMs) || options.quietMs < 0)
      throw new TypeError(`quietMs must be a number of milliseconds >= 0, got ${options.quietMs}`);
    if (options.maxWaitMs !== undefined && !(typeof options.maxWaitMs === 'number' && options.maxWaitMs >= 0))
      throw new TypeError(`maxWaitMs must be a number of milliseconds >= 0, got ${options.maxWaitMs}`);
    this.#quietMs = options.quietMs;
    this.#maxWaitMs = options.maxWaitMs ?? Math.max(10 * options.quietMs, 2_000);
    this.#flush = options.flush;
  }

  /** Paths waiting to be handed over. */
  get pending(): number {
    return this.#paths.size;
  }

  touch(path: string): void {
    const now = Date.now();
    if (this.#paths.size === 0) this.#firstAt = now;
    this.#paths.add(path);
    clearTimeout(this.#timer);
    const wait = Math.min(this.#quietMs, Math.max(0, this.#firstAt + this.#maxWaitMs - now));
    this.#timer = setTimeout(() => this.flushNow(), wait);
  }

  /** Hands over what is pending at once (nothing when nothing is). */
  flushNow(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#paths.size === 0) return;
    const paths = [...this.#paths].sort();
    this.#paths = new Set();
    this.#flush(paths);
  }

  /** Drops the timer; pending paths stay pending (a final `flushNow` hands them over). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
