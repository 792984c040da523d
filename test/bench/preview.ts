// `docsync preview` as users run it (the built dist/): start to the first page served, on a
// 10-page and a 5,000-page workspace, as a ratio against `docsync --help` (process start) in the
// same run. Save-to-updated-in-the-browser latency is not benched yet (docs/preview.md).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'dist/cli/bin.js');

function workspace(pages: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-preview-bench-'));
  const sections = Math.max(1, Math.ceil(pages / 100));
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const body = (i: number) =>
    `Page ${i} text.\n\n{% hint style="info" %}\nA hint on page ${i}.\n{% endhint %}\n\n## Part\n\n\`\`\`js\nconst page = ${i};\n\`\`\`\n\n[home](../README.md)\n`;
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

async function timeToFirstPage(dir: string): Promise<{ ms: number; url: string; stop: () => void }> {
  const start = performance.now();
  const child = spawn(process.execPath, [bin, 'preview', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) done(match[0]);
    });
    child.on('exit', (code) => fail(new Error(`preview exited ${code}`)));
  });
  const res = await fetch(`${url}/s0/p0`);
  if (!res.ok && res.status !== 404) throw new Error(`first page: ${res.status}`);
  await res.arrayBuffer();
  return { ms: performance.now() - start, url, stop: () => child.kill('SIGTERM') };
}

export async function benchPreview(): Promise<void> {
  // Bench the code as it is now, built as users run it.
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const helpStart = performance.now();
  execFileSync(process.execPath, [bin, '--help'], { stdio: 'ignore' });
  const helpMs = performance.now() - helpStart;
  console.log(`\npreview (dist/): baseline \`docsync --help\` ${helpMs.toFixed(0)} ms`);
  console.log('  save-to-update latency in Chromium: not measured yet (see docs/preview.md)');
  for (const pages of [10, 5000]) {
    const dir = workspace(pages);
    const run = await timeToFirstPage(dir);
    try {
      console.log(
        `  ${String(pages).padStart(5)} pages: start to first page ${run.ms.toFixed(0)} ms (${(run.ms / helpMs).toFixed(1)}x --help; target 2000 ms)`,
      );
    } finally {
      run.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
