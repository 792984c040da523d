import { createHash } from 'node:crypto';
import { slugify, uniqueSlug } from '../tree/slugs.js';
import { listOperations, listTags, listWebhooks, operationMarkdown, type Operation } from './operations.js';
import { namedSchemas, oneLine, schemasMarkdown } from './schema-markdown.js';
import type { OpenApiFiles } from './spec-files.js';

/** A page an OpenAPI reference generates: never stored, made again from the spec on each read. */
export interface GeneratedPage {
  id: string;
  title: string;
  slug: string;
  markdown: string;
  /** The published computed document source's `props` (`{doc: "operation", page, method}` ...). */
  props: Record<string, unknown>;
  /** The published `computedSeed`: what the id is derived from. */
  seed: string;
  pages: GeneratedPage[];
}

export interface ReferenceOptions {
  /** The computed page the generated pages hang under. */
  pageId: string;
  /** The spec's slug, as the computed page names it. */
  specSlug: string;
  /** `by-tag` (default): one page per tag, its operations under it; `by-operation`: operations only. */
  grouping?: 'by-tag' | 'by-operation';
  /** A models page listing the spec's schemas. */
  models?: boolean;
  /**
   * Slugs stored pages already have where the generated pages go (beside them, under the
   * computed page's path): a generated page never takes one, it gets the next free suffix.
   */
  reserved?: readonly string[];
}

/**
 * Ids are derived from the computed page, the spec's slug and what the page shows (a tag's
 * name, an operation's method and path), so they stay the same across reads and versions.
 */
function pageIdOf(options: ReferenceOptions, seed: string): string {
  return `oa${createHash('sha256').update(`${options.pageId}\0${options.specSlug}\0${seed}`).digest('base64url').slice(0, 22)}`;
}

/** The pages of an OpenAPI reference: by tag, each tag's operations under it; untagged operations last. */
export function referencePages(spec: OpenApiFiles, options: ReferenceOptions): GeneratedPage[] {
  // Webhooks (3.1) are pages as operations are, after them in their tag.
  const operations = [...listOperations(spec), ...listWebhooks(spec)];
  const taken = new Set<string>(options.reserved);
  const opPage = (op: Operation, siblings: Set<string>): GeneratedPage => {
    const seed = `${op.webhook ? 'webhook' : 'operation'}:${op.method}:${op.path}`;
    const deprecated = op.deprecated ? { deprecated: true } : {};
    return {
      id: pageIdOf(options, seed),
      title: op.title,
      slug: uniqueSlug(slugify(op.operationId ?? op.title), siblings),
      markdown: operationMarkdown(spec, op),
      props: op.webhook
        ? { doc: 'webhook', name: op.path, method: op.method, ...deprecated }
        : { doc: 'operation', page: op.path, method: op.method, ...deprecated },
      seed,
      pages: [],
    };
  };
  const track = (page: GeneratedPage, siblings: Set<string>) => {
    siblings.add(page.slug);
    return page;
  };
  const pages: GeneratedPage[] = [];
  if (options.grouping === 'by-operation') {
    for (const op of operations) pages.push(track(opPage(op, taken), taken));
  } else {
    for (const tag of listTags(spec, operations)) {
      const ops = operations.filter((op) => op.tag === tag.name);
      const seed = `tag:${tag.name}`;
      const children = new Set<string>();
      const listing = ops.map((op) => `* \`${op.method.toUpperCase()} ${op.path}\`: ${op.title}`).join('\n');
      pages.push(
        track(
          {
            id: pageIdOf(options, seed),
            title: oneLine(tag.name),
            slug: uniqueSlug(slugify(tag.name), taken),
            markdown: `# ${oneLine(tag.name)}\n\n${tag.description !== undefined ? `${tag.description.trim()}\n\n` : ''}${listing}\n`,
            props: { doc: 'tag', page: tag.name },
            seed,
            pages: ops.map((op) => track(opPage(op, children), children)),
          },
          taken,
        ),
      );
    }
    for (const op of operations.filter((o) => o.tag === undefined)) pages.push(track(opPage(op, taken), taken));
  }
  if (options.models) {
    const names = [...namedSchemas(spec).keys()];
    if (names.length > 0)
      pages.push({
        id: pageIdOf(options, 'models'),
        title: 'Models',
        slug: uniqueSlug('models', taken),
        markdown: `# Models\n\n${schemasMarkdown(spec, names)}\n`,
        props: { doc: 'models' },
        seed: 'models',
        pages: [],
      });
  }
  return pages;
}
