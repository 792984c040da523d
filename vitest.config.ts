import { defineConfig } from 'vitest/config';
import { EVENT_WAIT_MS } from './test/helpers/patience.js';

// Test files that read the real Git Sync exports (test/helpers/corpus.ts) have `corpus` in their
// name and run only when DOCSYNC_CORPUS_DIR names those exports (`.ci/run` sets it): without it
// they are not part of the run at all, rather than skipped or passing on nothing.
const corpusTests = '**/*corpus*.test.ts';
// Test files that drive a real browser have `browser` in their name and run only when
// DOCSYNC_CHROMIUM names a Chromium executable (`.ci/run` and `npm run test:browser` set it);
// set, a missing executable fails them loudly (test/helpers/chromium.ts), never a skip.
const browserTests = '**/*browser*.test.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      ...(process.env.DOCSYNC_CORPUS_DIR ? [] : [corpusTests]),
      ...(process.env.DOCSYNC_CHROMIUM ? [] : [browserTests]),
    ],
    setupFiles: ['test/setup-fast-check.ts', 'test/setup-limits.ts'],
    // Server tests open real databases and listen on ports; two workers suit the 2-core machines.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // A timeout only turns a hang into a failure: it is no figure a test must beat. An in-process
    // server's start and a handful of requests took over 30 s beside a second copy of the suite
    // (load 20 on two cores), so the default is EVENT_WAIT_MS (test/helpers/patience.ts); files that
    // start processes take PROCESS_TEST_MS.
    testTimeout: EVENT_WAIT_MS,
    hookTimeout: EVENT_WAIT_MS,
  },
});
