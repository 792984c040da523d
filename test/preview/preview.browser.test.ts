import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src/preview/index.js';
import { launchChromium } from '../helpers/chromium.js';
import { previewFolder } from './fixture.js';

let browser: Browser;
let preview: Preview;
let dir: string;

beforeAll(async () => {
  dir = await previewFolder({ 'long.md': `# Long\n\n${Array.from({ length: 200 }, (_, i) => `Paragraph ${i}.`).join('\n\n')}\n` });
  const summary = await readFile(join(dir, 'SUMMARY.md'), 'utf8');
  await writeFile(join(dir, 'SUMMARY.md'), summary.replace('* [Secret](secret.md)', '* [Secret](secret.md)\n* [Long](long.md)'));
  preview = await startPreview({ dir, port: 0 });
  await preview.indexed;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await preview?.close();
});

async function open(path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ colorScheme });
  await page.goto(preview.url + path);
  await page.waitForSelector('html[data-docsync-live="true"]');
  return page;
}

/** Arms a wait for the page's next live update (before the save, so it cannot be missed). */
async function nextUpdate(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(
    "window.nextUpdate = new Promise((done) => document.addEventListener('docsync:updated', () => done(), { once: true })); 0",
  );
  return async () => {
    await page.evaluate('window.nextUpdate');
  };
}

describe('docsync preview in Chromium', () => {
  it('lists the navigation in SUMMARY.md order and follows it', async () => {
    const page = await open('/');
    expect(await page.locator('.ds-nav a, .ds-nav .ds-nav-group-title').allTextContents()).toEqual([
      'Welcome',
      'Guides',
      'Long',
      'Reference',
      'Blocks',
      'GitHub',
    ]);
    await page.click('.ds-nav >> text=Guides');
    await page.waitForURL(`${preview.url}/guides`);
    expect(await page.locator('.ds-nav a, .ds-nav .ds-nav-group-title').allTextContents()).toEqual([
      'Welcome',
      'Guides',
      'Install',
      'Long',
      'Reference',
      'Blocks',
      'GitHub',
    ]);
    await page.click('a[rel="next"]');
    await page.waitForURL(`${preview.url}/guides/install`);
    expect(await page.textContent('h1')).toBe('Install');
    await page.close();
  });

  it('renders the blocks visibly: hint, tabs that switch on click, stepper, cards, math, highlighted code with its title', async () => {
    const page = await open('/reference/blocks');
    expect(await page.isVisible('.gb-hint-warning >> text=Careful here')).toBe(true);
    expect(await page.isVisible('text=Alpha content')).toBe(true);
    expect(await page.isVisible('text=Beta content')).toBe(false);
    await page.click('.gb-tab-button >> text=Second tab');
    expect(await page.isVisible('text=Beta content')).toBe(true);
    expect(await page.isVisible('text=Alpha content')).toBe(false);
    expect(await page.locator('.gb-step-number').allTextContents()).toEqual(['1', '2']);
    expect(await page.isVisible('.gb-cards-card >> text=Card one')).toBe(true);
    expect(await page.isVisible('.katex')).toBe(true);
    expect(await page.textContent('.gb-code-title')).toBe('hello.js');
    expect(await page.locator('.gb-code .hljs-keyword').first().textContent()).toBe('const');
    const colour = 'getComputedStyle(document.querySelector(SELECTOR)).color';
    expect(await page.evaluate(colour.replace('SELECTOR', "'.gb-code .hljs-keyword'"))).not.toBe(
      await page.evaluate(colour.replace('SELECTOR', "'.gb-code code'")),
    );
    await page.close();
  });

  it('runs no script from page content', async () => {
    const page = await open('/reference/blocks');
    await page.waitForTimeout(100);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    await page.close();
  });

  it('lists a broken link in the overlay', async () => {
    const page = await open('/reference/blocks');
    expect(await page.textContent('#docsync-problems')).toContain('reference/blocks.md:36: broken link `../nowhere.md`');
    await page.close();
  });

  it('follows the system setting for dark mode', async () => {
    const light = await open('/');
    const dark = await open('/', 'dark');
    const background = (p: Page) => p.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(await background(light)).toBe('rgb(255, 255, 255)');
    expect(await background(dark)).toBe('rgb(13, 17, 23)');
    await light.close();
    await dark.close();
  });

  it('updates the open page in place on save, keeping the scroll position', async () => {
    const page = await open('/long');
    await page.evaluate('window.marker = 42; window.scrollTo(0, 1500)');
    const updated = await nextUpdate(page);
    await writeFile(
      join(dir, 'long.md'),
      `# Long\n\n${Array.from({ length: 200 }, (_, i) => `Paragraph ${i}.`).join('\n\n')}\n\nA new closing line.\n`,
    );
    await updated();
    expect(await page.isVisible('text=A new closing line.')).toBe(true);
    expect(await page.evaluate('window.marker')).toBe(42);
    expect(await page.evaluate('window.scrollY')).toBe(1500);
    await page.close();
  });

  it('updates the navigation when SUMMARY.md changes', async () => {
    const page = await open('/');
    const updated = await nextUpdate(page);
    const summary = await readFile(join(dir, 'SUMMARY.md'), 'utf8');
    await writeFile(join(dir, 'SUMMARY.md'), summary.replace('[Guides](guides/README.md)', '[All the guides](guides/README.md)'));
    await updated();
    expect(await page.locator('.ds-nav a').nth(1).textContent()).toBe('All the guides');
    await page.close();
  });

  it('finds a page with the search box', async () => {
    const page = await open('/');
    await page.fill('#ds-search-input', 'zebrafish');
    await page.waitForSelector('#ds-search-results a');
    expect(await page.locator('#ds-search-results a').first().getAttribute('href')).toBe('/guides/install');
    await page.click('#ds-search-results a');
    await page.waitForURL(`${preview.url}/guides/install`);
    await page.close();
  });
});
