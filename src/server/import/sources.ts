import type { ImportedInclude, ImportedPage } from '../../content/index.js';
import { runParse } from '../parse/pool.js';
import { badRequest, fileNameProblem } from '../../model/index.js';
import { decodeText, fetchForImport } from './fetch-source.js';
import { crawlWebsite } from './website.js';
import { readZip } from './zip.js';
import { FetchBudget } from '../fetch/budget.js';
import { IMPORT_LIMITS } from './limits.js';

/** The import sources the published API names (0.130); docsync reads the first four. */
export const IMPORT_SOURCES = ['website', 'html', 'markdown', 'zip', 'docx', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportAsset {
  /** Path under `.gitbook/assets/`: the file's name. */
  name: string;
  bytes: Uint8Array;
}

export interface SourceContent {
  pages: ImportedPage[];
  assets: ImportAsset[];
  /** A Git Sync folder's `.gitbook/includes/`, as reusable contents. */
  includes?: ImportedInclude[];
  /** Resources found in the source, imported or not. */
  total: number;
}

const ASSETS = '.gitbook/assets/';

/** Reads what a source holds; every failure is a 400 naming the URL or the entry. */
export async function readSource(source: ImportSource, url: string, allowPrivate: boolean): Promise<SourceContent> {
  // One allowance for the whole import: every page of a website, the zip, the markdown file.
  const budget = new FetchBudget();
  switch (source) {
    case 'website':
    case 'html': {
      const site = await crawlWebsite(budget, url, source === 'website', allowPrivate);
      return { pages: site.pages, assets: [], total: site.total };
    }
    case 'markdown': {
      const fetched = await fetchForImport(budget, url, IMPORT_LIMITS.maxPageBytes, allowPrivate);
      const name = lastSegment(fetched.url).replace(/\.(md|markdown)$/i, '');
      const title = name === '' ? 'Untitled' : name;
      return {
        pages: [{ source: fetched.url, kind: 'document', title, slug: title, markdown: decodeText(fetched.bytes), pages: [] }],
        assets: [],
        total: 1,
      };
    }
    case 'zip': {
      const fetched = await fetchForImport(budget, url, IMPORT_LIMITS.maxZipBytes, allowPrivate);
      const { files } = await readZip(fetched.bytes, url);
      const markdown = new Map<string, string>();
      const assets: ImportAsset[] = [];
      for (const [path, bytes] of files) {
        if (path.startsWith(ASSETS) && path.length > ASSETS.length) {
          const name = path.slice(ASSETS.length);
          const problem = fileNameProblem(name);
          if (problem) throw badRequest(`body.url: zip entry ${JSON.stringify(path)}: the file name ${problem}`);
          assets.push({ name, bytes });
        } else if (/\.md$/i.test(path)) markdown.set(path, decodeText(bytes));
      }
      const { result: folder } = await runParse({ kind: 'folder', files: markdown }, url);
      if (!folder.ok) throw badRequest(`body.url: ${url}: ${folder.message}`);
      return { pages: folder.pages, assets, includes: folder.includes, total: files.size };
    }
    case 'docx':
    case 'confluence':
    case 'github-wiki':
    case 'notion':
    case 'google-docs':
      throw badRequest(`body.source: importing from \`${source}\` is not supported by this server; use website, html, markdown or zip`);
  }
}

function lastSegment(url: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
