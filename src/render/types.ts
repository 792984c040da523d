import type { PageCover, PageLayout, VariableValue } from '../model/index.js';
import type { OpenApiFiles } from '../content/index.js';

/**
 * A page of the site as the renderer sees it: what its caller (the preview reading a folder, the
 * server reading a revision) knows of the page tree. URLs are the caller's: the renderer only
 * writes them into links.
 */
export interface SitePage {
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  /** The sidebar label when it differs from the title. */
  linkTitle?: string;
  /** Documents: the page's file, relative to the site's root (`guides/install.md`). */
  path?: string;
  /** Documents: where the page is served (`/guides/install`); links: where they point. */
  url: string;
  hidden?: boolean;
  emoji?: string;
  icon?: string;
  description?: string;
  layout?: PageLayout;
  cover?: PageCover;
  /** Page variables (`{{ page.vars.name }}`). */
  variables?: Record<string, VariableValue>;
  pages: SitePage[];
}

/** Everything a page may refer to. */
export interface RenderSite {
  title: string;
  pages: SitePage[];
  /** Space variables (`{{ space.vars.name }}`). */
  variables: Record<string, VariableValue>;
  /** Reusable contents by file (`.gitbook/includes/name.md`): their markdown, front matter removed. */
  includes: ReadonlyMap<string, string>;
  /** The site's files by path (`.gitbook/assets/a.png`). */
  assets: ReadonlySet<string>;
  /** Prefix of asset URLs: an asset's URL is this + its encoded path. @default '/' */
  assetBase?: string;
  /**
   * The OpenAPI specs `{% openapi-operation %}` and `{% openapi-schemas %}` blocks may name, by
   * slug, and the older `{% openapi %}` and `{% swagger %}` blocks by their `src` (a slug or a
   * spec's source URL): each one's latest processed version. A block naming another spec is a
   * placeholder card.
   */
  openapi?: ReadonlyMap<string, OpenApiFiles>;
}

export interface RenderOptions {
  /**
   * `preview` shows what a writer must see (unknown tags as warnings, every `{% if %}` branch
   * with its condition); `published` shows what a reader sees (unknown tags and branches the
   * visitor does not meet left out).
   */
  mode: 'preview' | 'published';
  /** The visitor's claims, for `{% if visitor.claims... %}` when published. */
  claims?: Record<string, unknown>;
}

/** Something wrong in a page, found while rendering it: `file:line: message` for people. */
export interface RenderProblem {
  /** The page's file, or the include's when the problem is in one. */
  file: string;
  line: number;
  message: string;
}

export interface OutlineEntry {
  id: string;
  title: string;
  depth: number;
}

export interface RenderedPage {
  /** The page's content: sanitised HTML, GitBook blocks as classes `gb-*`. */
  html: string;
  /** Headings of levels 2 and 3 with their anchors, in order. */
  outline: OutlineEntry[];
  problems: RenderProblem[];
  /** True when the page has math: the page then needs KaTeX's style sheet. */
  math: boolean;
}
