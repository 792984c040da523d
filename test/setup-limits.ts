import { PARSE_LIMITS } from '../src/server/parse/limits.js';

// The server refuses a request whose markdown parsing takes over 10 s (docs/security.md), counted
// from the request, queueing and a cold worker's start included. Test files run two at a time
// beside servers, git and browsers on two cores, where an ordinary batch can wait that long for a
// worker; the tests of the budget itself set the figure they test (markdown-hostile, markdown-fuzz,
// pdf-cache), so elsewhere it is generous enough that only a hung parse meets it.
PARSE_LIMITS.budgetMs = 60_000;
