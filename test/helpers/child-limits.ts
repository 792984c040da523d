import { PARSE_LIMITS } from '../../src/server/parse/limits.js';

// Preloaded into every CLI process the tests start from source (test/cli/spawn-cli.ts), as
// test/setup-limits.ts is into the test workers: a server started by `docsync serve` or `up`
// counts a batch's parse budget from the request, a cold worker's start included, and on two
// cores beside a second copy of the suite (load 20) a process took 26 s to print its first line
// and pushes were refused after 10 s. The tests of the budget set their own figure in process.
PARSE_LIMITS.budgetMs = 60_000;
