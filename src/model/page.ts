import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { GitBlob } from './file.js';

export const PAGE_TYPES = ['document', 'group', 'link', 'computed'] as const;

/** Every layout option, filled: the published spec requires all 13 on a document page. */
export const PageLayoutOptions = Type.Object({
  width: Type.Union([Type.Literal('default'), Type.Literal('wide')]),
  cover: Type.Boolean(),
  coverSize: Type.Union([Type.Literal('hero'), Type.Literal('full'), Type.Literal('background')]),
  coverMask: Type.Union([Type.Literal('none'), Type.Literal('radial')]),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
  tags: Type.Boolean(),
  actions: Type.Boolean(),
  anchors: Type.Boolean(),
});
export type PageLayoutOptions = Static<typeof PageLayoutOptions>;

/** What a page shows when its stored layout leaves an option unset (GitBook's defaults). */
export const DEFAULT_PAGE_LAYOUT: PageLayoutOptions = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

const ImageRef = Type.Union([
  Type.Object({ kind: Type.Literal('file'), file: Type.String(), space: Type.Optional(Type.String()) }),
  Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
]);

export const PageCoverView = Type.Object({
  ref: Type.Optional(ImageRef),
  refDark: Type.Optional(ImageRef),
  yPos: Type.Number(),
  height: Type.Optional(Type.Number()),
});

export const VariablesView = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]));

/**
 * A JSON document (the `format=document` rendering). Its blocks are kept open here: the
 * content layer builds them, and serialising them needs no schema.
 */
export const JsonDocument = Type.Object({
  object: Type.Literal('document'),
  data: Type.Object({}, { additionalProperties: true }),
  nodes: Type.Array(Type.Unknown()),
});

const base = {
  id: Type.String(),
  title: Type.String(),
  linkTitle: Type.Optional(Type.String()),
  emoji: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  createdAt: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String()),
  condition: Type.Optional(Type.String()),
};

const flags = {
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
};

function pageProperties<C extends TSchema>(children: C) {
  return {
    ...base,
    type: Type.Union(PAGE_TYPES.map((t) => Type.Literal(t))),
    /** Absent on computed pages (the published RevisionPageComputed has none). */
    kind: Type.Optional(Type.Union([Type.Literal('sheet'), Type.Literal('group'), Type.Literal('link')])),
    urls: Type.Optional(Type.Object({ app: Type.String() })),
    slug: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    pages: Type.Optional(Type.Array(children)),
    git: Type.Optional(GitBlob),
    layout: Type.Optional(PageLayoutOptions),
    /**
     * Extension (`explicit-layout`): the layout options the page sets to their default value,
     * which `layout` cannot tell from options left unset; absent when there are none.
     */
    explicitLayout: Type.Optional(Type.Array(Type.String())),
    /** Extension (`front-matter`): the page file's front matter YAML as written. */
    frontMatter: Type.Optional(Type.String()),
    /** Extension (`title-heading`): `false` when the page file as written has no title heading; absent otherwise. */
    titleHeading: Type.Optional(Type.Literal(false)),
    cover: Type.Optional(PageCoverView),
    variables: Type.Optional(VariablesView),
    ...flags,
    tags: Type.Optional(Type.Array(Type.Unknown())),
    documentId: Type.Optional(Type.String()),
    markdown: Type.Optional(Type.String()),
    document: Type.Optional(JsonDocument),
    target: Type.Optional(Type.Object({ kind: Type.Literal('url'), url: Type.String() })),
    href: Type.Optional(Type.String()),
    /**
     * Computed pages: the source the pages are generated from (`{type: "builtin:openapi", props,
     * dependencies}`). Any JSON to the serialiser, which then keeps its keys in the order written.
     */
    computed: Type.Optional(Type.Unsafe<{ type: string } & Record<string, unknown>>({})),
    /** Pages a computed page generated: the seed their id was derived from. */
    computedSeed: Type.Optional(Type.String()),
    /**
     * Extension: the source a generated page came from (the published
     * ComputedContentSourceDocument, `{type: "builtin:openapi", props, dependencies}`).
     */
    generatedBy: Type.Optional(Type.Unsafe<{ type: string } & Record<string, unknown>>({})),
  };
}

/**
 * RevisionPage, one schema for the four page types (document, group, link, computed), so fastify can
 * serialise the recursive tree without choosing a branch per node; `type` tells them apart.
 */
export const RevisionPage = Type.Recursive((This) => Type.Object(pageProperties(This)), { $id: 'RevisionPage' });
export type RevisionPage = Static<typeof RevisionPage>;

/**
 * A page named by a link location: rendered without its children, and without the schema id
 * of RevisionPage, which one response may only hold once.
 */
export const LocationPage = Type.Object(pageProperties(Type.Unknown()));

export const PagesResponse = Type.Object({ pages: Type.Array(RevisionPage) });

/** Query of page reads: the published `format`, `evaluated`, `metadata` and `computed`. */
export const PageFormat = Type.Union([Type.Literal('document'), Type.Literal('markdown')]);
export type PageFormat = Static<typeof PageFormat>;
