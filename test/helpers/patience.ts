// No vitest here: `npm run bench` waits on the daemon with these too.

/**
 * How long a test waits for an event that a working program brings (a line the process prints,
 * a daemon cycle, a server event): a bound that only turns a hang into a failure saying what was
 * awaited, never a figure the program must beat. Sized for the slowest machine the suite meets:
 * two cores beside a second copy of the suite and other work (load average 20), where a CLI
 * process started from source took 26 s (4.5 s of CPU) to print its first line.
 */
export const EVENT_WAIT_MS = 120_000;

/**
 * The timeout of a test file whose tests start processes or servers and wait on their events:
 * above EVENT_WAIT_MS, so a wait's own message is what a hang shows. Its cost is real work (the
 * processes' start and their git, HTTP and parsing) on a loaded machine, not a wait on time.
 */
export const PROCESS_TEST_MS = 300_000;
