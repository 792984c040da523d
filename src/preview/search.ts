import MiniSearch from 'minisearch';
import { pageSections } from '../content/index.js';

export interface SearchHit {
  url: string;
  title: string;
  /** The start of the matching page's text. */
  excerpt: string;
}

interface Entry {
  id: string;
  title: string;
  text: string;
}

/**
 * The folder's pages in an in-memory full-text index (minisearch): titles weigh more than text,
 * prefixes and small typos match. Updated page by page on save.
 */
export class PreviewSearch {
  #index = new MiniSearch<Entry>({
    fields: ['title', 'text'],
    storeFields: ['title', 'text'],
    searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.2 },
  });

  /** Indexes (or re-indexes) one page. */
  set(url: string, title: string, markdown: string): void {
    const { sections } = pageSections(markdown);
    const text = sections
      .map((s) => `${s.title} ${s.body}`)
      .join('\n')
      .replace(/\{%[^%]*%\}/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (this.#index.has(url)) this.#index.discard(url);
    this.#index.add({ id: url, title, text });
  }

  remove(url: string): void {
    if (this.#index.has(url)) this.#index.discard(url);
  }

  search(query: string, limit = 10): SearchHit[] {
    if (query.trim() === '') return [];
    return this.#index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ url: String(hit.id), title: String(hit.title), excerpt: String(hit.text).slice(0, 140) }));
  }

  get size(): number {
    return this.#index.documentCount;
  }
}
