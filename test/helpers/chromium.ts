import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Launches the Chromium that DOCSYNC_CHROMIUM names (Debian's `chromium`, `/usr/bin/chromium`):
 * no browser is ever downloaded. Browser test files run only when it is set (vitest.config.ts);
 * set to a path with no executable, they fail here rather than pass on nothing.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.DOCSYNC_CHROMIUM;
  if (!executablePath)
    throw new Error(
      'DOCSYNC_CHROMIUM is not set: browser tests need a Chromium executable (apt-get install chromium; DOCSYNC_CHROMIUM=/usr/bin/chromium)',
    );
  if (!existsSync(executablePath)) throw new Error(`DOCSYNC_CHROMIUM=${executablePath}: no such executable (apt-get install chromium)`);
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
