import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A workspace folder in a temp dir, with pages that use GitBook's blocks. */
export async function previewFolder(extra: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-preview-'));
  const files: Record<string, string> = {
    'SUMMARY.md':
      '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n* [Secret](secret.md)\n\n## Reference\n\n* [Blocks](reference/blocks.md)\n* [GitHub](https://github.com)\n',
    'README.md': '---\ndescription: The start\n---\n\n# Welcome\n\nHello [install](guides/install.md).\n\n## First\n\nText\n',
    'guides/README.md': '# Guides\n\nAll guides.\n',
    'guides/install.md': '# Install\n\nRun `npm i` zebrafish.\n\n![logo](../.gitbook/assets/logo.png)\n',
    'secret.md': '---\nhidden: true\n---\n\n# Secret\n\nHidden page.\n',
    'reference/blocks.md': [
      '# Blocks',
      '',
      '{% hint style="warning" %}',
      'Careful here',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="First tab" %}',
      'Alpha content',
      '{% endtab %}',
      '',
      '{% tab title="Second tab" %}',
      'Beta content',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% stepper %}',
      '{% step %}',
      'Step one',
      '{% endstep %}',
      '{% step %}',
      'Step two',
      '{% endstep %}',
      '{% endstepper %}',
      '',
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Card one</strong></td><td><a href="../guides/install.md">x</a></td></tr></tbody></table>',
      '',
      'Math: $$e^{i\\pi}$$',
      '',
      '{% code title="hello.js" %}',
      '```js',
      'const greeting = "hi";',
      '```',
      '{% endcode %}',
      '',
      '[broken](../nowhere.md)',
      '',
      '<script>window.pwned = true</script>',
      '',
      '<img src="x" onerror="window.pwned = true">',
      '',
    ].join('\n'),
    '.gitbook/assets/logo.png': 'not really a png',
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}
