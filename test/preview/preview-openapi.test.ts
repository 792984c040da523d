import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src/preview/index.js';
import { PETS_V1, PET_SCHEMA } from '../helpers/openapi-fixture.js';
import { previewFolder } from './fixture.js';

let preview: Preview;
let dir: string;

beforeAll(async () => {
  dir = await previewFolder({
    'guides/install.md': [
      '# Install',
      '',
      '{% swagger src="../.gitbook/assets/petstore.yaml" path="/pets" method="get" %}',
      '[petstore.yaml](../.gitbook/assets/petstore.yaml)',
      '{% endswagger %}',
      '',
      '{% openapi src="../../outside.yaml" path="/pets" method="get" %}',
      '{% endopenapi %}',
      '',
      '{% openapi src="https://example.com/api.yaml" path="/pets" method="get" %}',
      '{% endopenapi %}',
      '',
    ].join('\n'),
    '.gitbook/assets/petstore.yaml': PETS_V1,
    '.gitbook/assets/schemas/pet.yaml': PET_SCHEMA,
  });
  preview = await startPreview({ dir, port: 0 });
  await preview.indexed;
});
afterAll(() => preview.close());

describe('docsync preview: OpenAPI blocks naming a spec file of the folder', () => {
  it('renders the operation from the file (its $refs followed), reads it again on each visit, and keeps the others placeholders', async () => {
    const html = await (await fetch(`${preview.url}/guides/install`)).text();
    expect(html).toContain('<div class="gb-openapi-block gb-swagger">');
    expect(html).toContain('<strong>List pets</strong>');
    expect(html).toContain('<code>name</code> (string, required)');
    // Outside the folder, or a URL: the placeholder card.
    expect(html).toContain('from ../../outside.yaml');
    expect(html).toContain('from https://example.com/api.yaml');

    await writeFile(join(dir, '.gitbook/assets/petstore.yaml'), PETS_V1.replace('summary: List pets', 'summary: List every pet'));
    const again = await (await fetch(`${preview.url}/guides/install`)).text();
    expect(again).toContain('<strong>List every pet</strong>');
  });
});
