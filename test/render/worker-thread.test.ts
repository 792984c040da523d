import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

// The renderer (highlighting included) loads on a worker thread from the sources, as the server's
// piscina workers load it: no top-level await anywhere in its module graph.
describe('the renderer on a worker thread', () => {
  it('renders a page with a highlighted code block', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const worker = new Worker(new URL('./fixtures/render-in-worker.cjs', import.meta.url), {
      execArgv: ['--import', tsx],
      workerData: '# Home\n\n```js\nconst answer = 42;\n```\n',
    });
    const html = await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
    await worker.terminate();
    expect(html).toContain('<code class="hljs language-js">');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
  });
});
