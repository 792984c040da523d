import type { FetchProgress } from './content.js';

export interface ProgressEvent {
  stage: string;
  done: number;
  total: number;
}

/**
 * One count per stage for fetches running at once: each fetch gets its own reporter, and
 * `onProgress` hears the sums (pages of main and of every change request as one `pages`
 * count, whose total grows as each revision is read).
 */
export function summedProgress(onProgress: ((event: ProgressEvent) => void) | undefined): () => (event: FetchProgress) => void {
  const sums = new Map<string, { done: number; total: number }>();
  return () => {
    const last = new Map<string, { done: number; total: number }>();
    return (event) => {
      const before = last.get(event.stage) ?? { done: 0, total: 0 };
      const sum = sums.get(event.stage) ?? { done: 0, total: 0 };
      sum.done += event.done - before.done;
      sum.total += event.total - before.total;
      sums.set(event.stage, sum);
      last.set(event.stage, { done: event.done, total: event.total });
      onProgress?.({ stage: event.stage, done: sum.done, total: sum.total });
    };
  };
}
