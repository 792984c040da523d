import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../helpers/chromium.js';
import { EVENT_WAIT_MS } from '../../helpers/patience.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { spaceWithPages } from '../../helpers/web-content.js';
import { makeSite, sitesPath } from '../../helpers/sites.js';

let browser: Browser;
let server: TestServer;
let space: { id: string; urls: { app: string } };
let cr: { id: string; number: number; urls: { app: string } };

beforeAll(async () => {
  server = await startServer('sqlite');
  ({ space } = await spaceWithPages(server, [
    { title: 'Welcome', markdown: '# Welcome\n\nRead the [install guide](install.md).\n' },
    {
      title: 'Install',
      markdown: '# Install\n\nRun the old installer.\n\n<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">\n',
    },
  ]));
  const listed = await server.request('GET', `/v1/spaces/${space.id}/content/pages`);
  const install = (listed.body.pages as { id: string; title: string }[]).find((p) => p.title === 'Install')!.id;
  cr = (await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Shiny installer' } })).body;
  await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
    body: { changes: [{ operation: 'update_page', page: install, document: { markdown: '# Install\n\nRun the shiny installer.\n' } }] },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the web app in Chromium', () => {
  it('signs in, reads and navigates a space, merges a change request from its page, and signs out', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) violations.push(m.text());
    });
    await page.goto(space.urls.app);
    expect(page.url()).toContain('/app/sign-in');
    await page.fill('#token', server.token);
    await page.click('button[type=submit]');
    await page.waitForURL(space.urls.app);
    await page.click('.ds-nav >> text=Welcome');
    await expect.poll(() => page.textContent('.ds-body')).toContain('Read the');
    await page.click('.ds-nav >> text=Install');
    await expect.poll(() => page.textContent('h1.ds-title')).toBe('Install');
    expect(await page.textContent('.ds-body')).toContain('Run the old installer.');
    expect(await page.evaluate('window.pwned')).toBeUndefined();

    await page.goto(cr.urls.app);
    expect(await page.textContent('.diff-add')).toContain('+ Run the shiny installer.');
    await page.click('button:has-text("Merge")');
    await expect.poll(() => page.textContent('.app-status[data-status]')).toBe('merged');
    await page.goto(space.urls.app);
    await page.click('.ds-nav >> text=Install');
    await expect.poll(() => page.textContent('.ds-body')).toContain('Run the shiny installer.');

    await page.click('button:has-text("Sign out")');
    await page.waitForURL(/\/app\/sign-in/);
    await page.goto(space.urls.app);
    expect(page.url()).toContain('/app/sign-in');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('shows a reader no merge button', async () => {
    const reader = await server.user({ org: server.orgId, role: 'read' });
    const cr2 = (await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Another' } })).body;
    const page = await browser.newPage();
    await page.goto(`${server.url}/app/sign-in`);
    await page.fill('#token', reader.token);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/app`);
    await page.goto(cr2.urls.app);
    expect(await page.textContent('h1')).toContain('Another');
    expect(await page.locator('button:has-text("Merge")').count()).toBe(0);
    await page.close();
  });

  it("updates an open space page live when main changes on the platform, and a change request's page when it is merged", async () => {
    // One context (its cookies) for both tabs.
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${server.url}/app/sign-in`);
    await page.fill('#token', server.token);
    await page.click('button[type=submit]');
    await page.waitForURL(`${server.url}/app`);
    const listed = await server.request('GET', `/v1/spaces/${space.id}/content/pages`);
    const welcome = (listed.body.pages as { id: string; title: string }[]).find((p) => p.title === 'Welcome')!.id;
    await page.goto(`${space.urls.app}/pages/${welcome}`);
    await page.waitForSelector('html[data-docsync-live="true"]');
    const edit = (await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Live' } })).body;
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${edit.id}/content`, {
      body: { changes: [{ operation: 'update_page', page: welcome, document: { markdown: '# Welcome\n\nWritten while you read.\n' } }] },
    });

    // The change request's page, open in a second tab, follows its status.
    const review = await context.newPage();
    await review.goto(edit.urls.app);
    await review.waitForSelector('html[data-docsync-live="true"]');
    expect(await review.textContent('.app-status[data-status]')).toBe('open');
    await server.request('POST', `/v1/spaces/${space.id}/change-requests/${edit.id}/merge`);

    await expect.poll(() => page.textContent('.ds-body'), { timeout: EVENT_WAIT_MS }).toContain('Written while you read.');
    await expect.poll(() => review.textContent('.app-status[data-status]'), { timeout: EVENT_WAIT_MS }).toBe('merged');
    // Morphed in place, not reloaded: the page's own counter of updates went up.
    expect(await page.evaluate('window.docsyncUpdates')).toBeGreaterThanOrEqual(1);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('opens a share-link site only with its key', async () => {
    const site = await makeSite(server, { title: 'Partner docs', spaces: [space.id], visibility: 'share-link' });
    await server.request('POST', `${sitesPath(server)}/${site.id}/publish`);
    const link = (await server.request('POST', `${sitesPath(server)}/${site.id}/share-links`, { body: { name: 'partners' } })).body;
    const page = await browser.newPage();
    expect((await page.goto(site.urls.published))!.status()).toBe(404);
    expect((await page.goto(link.urls.published))!.status()).toBe(200);
    await page.click('.ds-nav >> text=Install');
    await expect.poll(() => page.textContent('.ds-body')).toContain('Run the shiny installer.');
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.close();
  });
});
