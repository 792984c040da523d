// `docsync preview` as users run it (the built dist/), on a 10-page and a 5,000-page workspace:
// start to the first page served, as a ratio against `docsync --help` (process start) in the
// same run; save-to-updated-in-the-browser latency in Chromium (a page open in the preview, the
// page's file saved 30 times, each time until the open page's DOM holds the saved text), median
// and p95, as a ratio against the same page fetched and morphed by the browser with no save
// (what a save costs over the refresh itself: watcher, events); and the stop after SIGTERM.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'dist/cli/bin.js');
const SAVES = 30;
const CHROMIUM = process.env.DOCSYNC_CHROMIUM ?? '/usr/bin/chromium';
/** The page saved: a child of the first section, as any page of the 5,000. */
const SAVED_PAGE = { file: 's0/p0.md', url: '/s0/p0' };

function workspace(pages: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-preview-bench-'));
  const sections = Math.max(1, Math.ceil(pages / 100));
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const body = (i: number) =>
    `Page ${i} text, marker${i}.\n\n{% hint style="info" %}\nA hint on page ${i}.\n{% endhint %}\n\n## Part\n\n\`\`\`js\nconst page = ${i};\n\`\`\`\n\n[home](../README.md)\n`;
  write('README.md', '# Home\n\nThe start.\n');
  let made = 1;
  for (let s = 0; s < sections && made < pages; s += 1) {
    summary.push(`* [Section ${s}](s${s}/README.md)`);
    write(`s${s}/README.md`, `# Section ${s}\n\n${body(made)}`);
    made += 1;
    for (let p = 0; p < 99 && made < pages; p += 1, made += 1) {
      summary.push(`  * [Page ${s}-${p}](s${s}/p${p}.md)`);
      write(`s${s}/p${p}.md`, `# Page ${s}-${p}\n\n${body(made)}`);
    }
  }
  write('SUMMARY.md', `${summary.join('\n')}\n`);
  return dir;
}

interface Run {
  ms: number;
  url: string;
  child: ChildProcess;
}

async function timeToFirstPage(dir: string): Promise<Run> {
  const start = performance.now();
  const child = spawn(process.execPath, [bin, 'preview', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) done(match[0]);
    });
    child.on('exit', (code) => fail(new Error(`preview exited ${code}`)));
  });
  const res = await fetch(`${url}${SAVED_PAGE.url}`);
  if (!res.ok && res.status !== 404) throw new Error(`first page: ${res.status}`);
  await res.arrayBuffer();
  return { ms: performance.now() - start, url, child };
}

/** SIGTERM, then the time to the process's exit and its exit code (it must stop promptly with 0). */
async function stop(child: ChildProcess): Promise<{ ms: number; code: number | string }> {
  const start = performance.now();
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  child.kill('SIGTERM');
  const timeout = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await exited;
  clearTimeout(timeout);
  return { ms: performance.now() - start, code };
}

/** Waits until the preview has read and indexed every page (its search finds the last one). */
async function settled(url: string, pages: number): Promise<void> {
  for (let i = 0; i < 1200; i += 1) {
    const hits = (await (await fetch(`${url}/_docsync/search?q=marker${pages - 1}`)).json()) as { excerpt: string }[];
    if (hits.some((hit) => hit.excerpt.includes(`marker${pages - 1}.`))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the preview did not finish reading the folder in 120 s');
}

const median = (list: number[]) => quantile(list, 0.5);
function quantile(list: number[], q: number): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * Saves the page's file SAVES times; each save's latency runs from just before the write (Node's
 * clock) to the moment the open page's DOM holds the saved text (the browser's clock, taken in the
 * page right after idiomorph's morph; both are wall clocks of this machine).
 */
async function saveLatencies(page: Page, dir: string): Promise<number[]> {
  const file = join(dir, SAVED_PAGE.file);
  const original = readFileSync(file, 'utf8');
  const latencies: number[] = [];
  for (let n = 0; n < SAVES; n += 1) {
    const marker = `saved-${n}-${Date.now()}`;
    // The page's own script, as a string: this file is compiled without the DOM's types.
    await page.evaluate(`window.savedAt = new Promise((done) => {
      const check = () => {
        if (!document.body.textContent.includes(${JSON.stringify(marker)})) return;
        document.removeEventListener('docsync:updated', check);
        done(performance.timeOrigin + performance.now());
      };
      document.addEventListener('docsync:updated', check);
    }); 0`);
    const start = performance.timeOrigin + performance.now();
    writeFileSync(file, `${original}\nEdited: ${marker}\n`);
    const updated = (await page.evaluate('window.savedAt')) as number;
    latencies.push(updated - start);
    // Saves a writer makes, not a burst: let the editor's next keystroke come a little later.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  writeFileSync(file, original);
  return latencies;
}

/** The baseline: the browser fetching the same page and morphing it in, as a save makes it do, with no save. */
async function refetchLatencies(page: Page): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < SAVES; n += 1) {
    latencies.push(
      (await page.evaluate(`(async () => {
        const start = performance.now();
        const html = await (await fetch(location.pathname, { headers: { 'x-docsync-preview': 'morph' } })).text();
        const next = new DOMParser().parseFromString(html, 'text/html');
        Idiomorph.morph(document.body, next.body, { morphStyle: 'innerHTML' });
        return performance.now() - start;
      })()`)) as number,
    );
  }
  return latencies;
}

export async function benchPreview(): Promise<void> {
  // Bench the code as it is now, built as users run it.
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const helpStart = performance.now();
  execFileSync(process.execPath, [bin, '--help'], { stdio: 'ignore' });
  const helpMs = performance.now() - helpStart;
  console.log(`\npreview (dist/): baseline \`docsync --help\` ${helpMs.toFixed(0)} ms`);
  let browser: Browser | undefined;
  if (existsSync(CHROMIUM)) {
    process.env.DOCSYNC_CHROMIUM = CHROMIUM;
    browser = await launchChromium();
  } else
    console.log(`  save-to-update latency: not measured, no Chromium at ${CHROMIUM} (apt-get install chromium; DOCSYNC_CHROMIUM=path)`);
  try {
    for (const pages of [10, 5000]) {
      const dir = workspace(pages);
      const run = await timeToFirstPage(dir);
      try {
        console.log(
          `  ${String(pages).padStart(5)} pages: start to first page ${run.ms.toFixed(0)} ms (${(run.ms / helpMs).toFixed(1)}x --help; target 2000 ms)`,
        );
        if (browser !== undefined) {
          await settled(run.url, pages);
          const page = await browser.newPage();
          await page.goto(run.url + SAVED_PAGE.url);
          await page.waitForSelector('html[data-docsync-live="true"]');
          const base = await refetchLatencies(page);
          const saves = await saveLatencies(page, dir);
          await page.close();
          const ms = (x: number) => `${x.toFixed(0)} ms`;
          console.log(
            `         save to updated in Chromium, ${SAVES} saves: median ${ms(median(saves))} (target 150 ms), p95 ${ms(quantile(saves, 0.95))};` +
              ` ${(median(saves) / median(base)).toFixed(1)}x the page refetched and morphed with no save (median ${ms(median(base))}, p95 ${ms(quantile(base, 0.95))})`,
          );
        }
      } finally {
        const stopped = await stop(run.child);
        console.log(`         stop: exit ${stopped.code} ${stopped.ms.toFixed(0)} ms after SIGTERM`);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser?.close();
  }
}
