import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  JsonDocument,
  ListOf,
  ListQuery,
  PageFormat,
  PagesResponse,
  Revision,
  RevisionFile,
  RevisionPage,
  RevisionReusableContent,
} from '../../model/index.js';
import { findPage, pagePaths } from '../../content/index.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import {
  findFile,
  findReusableContent,
  renderFiles,
  renderGeneratedPage,
  renderPages,
  renderReusableContent,
  reusableContentDocument,
  type ContentScope,
} from '../revisions/read-content.js';
import {
  changeRequestScope,
  loadChangeRequest,
  loadReadableSpace,
  mergedFrom,
  revisionScope,
  spaceScope,
} from '../revisions/content-scope.js';
import { revisionJson, revisionView } from '../views/revision.js';
import { loadGitFiles } from '../revisions/stored-documents.js';
import { generateReferences, placedGenerated } from '../openapi/reference.js';

const Flag = Type.Optional(Type.Boolean());
const contentFlags = { metadata: Flag, computed: Flag };
const ContentQuery = Type.Object(contentFlags, { additionalProperties: false });
const FilesQuery = Type.Composite([ListQuery, ContentQuery], { additionalProperties: false });
/** `format` on the pages listing is docsync's extension (docs/api.md, "Content reads"). */
const PagesQuery = Type.Object({ ...contentFlags, format: Type.Optional(PageFormat) }, { additionalProperties: false });
const PageQuery = Type.Object(
  {
    ...contentFlags,
    format: Type.Optional(PageFormat),
    'format.markdown.refs': Type.Optional(Type.Union([Type.Literal('relative'), Type.Literal('stable')])),
    evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')])),
    dereferenced: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('reusable-contents')])),
    cachedMetadata: Flag,
  },
  { additionalProperties: false },
);
/** `format=markdown` on reusable content reads is docsync's extension (docs/api.md, "Reusable contents"). */
const ReusableContentQuery = Type.Object(
  { ...contentFlags, format: Type.Optional(Type.Literal('markdown')) },
  { additionalProperties: false },
);
/** The published document query; docsync documents have no expressions or references to expand. */
const DocumentQuery = Type.Object(
  {
    evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')])),
    dereferenced: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('reusable-contents')])),
  },
  { additionalProperties: false },
);

/** Path parameters of every content read; each route declares the ones its URL has. */
interface ContentParams {
  spaceId: string;
  changeRequestId?: string;
  revisionId?: string;
  pageId?: string;
  fileId?: string;
  reusableContentId?: string;
  '*'?: string;
}

/** The three places content is read from, with the same suffixes under each. */
const SCOPES: { prefix: string; params: TObject; resolve: (request: FastifyRequest, params: ContentParams) => Promise<ContentScope> }[] = [
  {
    prefix: '/spaces/:spaceId/content',
    params: Type.Object({ spaceId: Id }),
    resolve: async (request, params) => {
      const { space } = await loadReadableSpace(request.server.ctx.db, request.caller, params.spaceId);
      return spaceScope(request.server.ctx.db, space, baseUrl(request));
    },
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId/content',
    params: Type.Object({ spaceId: Id, changeRequestId: Id }),
    resolve: async (request, params) => {
      const db = request.server.ctx.db;
      const { space } = await loadReadableSpace(db, request.caller, params.spaceId);
      const cr = await loadChangeRequest(db, space, params.changeRequestId ?? '');
      return changeRequestScope(db, space, cr, baseUrl(request));
    },
  },
  {
    prefix: '/spaces/:spaceId/revisions/:revisionId',
    params: Type.Object({ spaceId: Id, revisionId: Id }),
    resolve: async (request, params) => {
      const db = request.server.ctx.db;
      const { space } = await loadReadableSpace(db, request.caller, params.spaceId);
      return revisionScope(db, space, params.revisionId ?? '', baseUrl(request));
    },
  },
];

// The revision's schema stays declared (it documents the answer), but is not what writes it (revisionJson).
const revisionSerializer = () => (view: unknown) => revisionJson(view as Revision);

const withParams = (scope: TObject, extra: Record<string, typeof Id>) => Type.Object({ ...scope.properties, ...extra });

export const contentReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const params = (request: FastifyRequest) => request.params as ContentParams;
  // The pages OpenAPI computed pages generate, unless the read asks for `computed=false`.
  const references = (request: FastifyRequest, scope: ContentScope) =>
    (request.query as { computed?: boolean }).computed === false ? undefined : generateReferences(db, scope.space.org_id, scope.tree);
  /** A generated page by id or by path; undefined when none is. */
  const findGenerated = async (request: FastifyRequest, scope: ContentScope, match: (p: { id: string; path: string }) => boolean) => {
    const refs = await references(request, scope);
    if (!refs) return undefined;
    const paths = pagePaths(scope.tree.pages);
    for (const placed of placedGenerated(refs, (id) => paths.get(id)?.path ?? ''))
      if (match({ id: placed.page.id, path: placed.path })) return { placed, refs };
    return undefined;
  };

  for (const { prefix, params: scopeParams, resolve } of SCOPES) {
    app.get(
      prefix,
      { schema: { params: scopeParams, querystring: ContentQuery, response: { 200: Revision } }, serializerCompiler: revisionSerializer },
      async (request) => {
        const scope = await resolve(request, params(request));
        // Pages of a revision carry their markdown: the cheapest body the published Document
        // accepts (a JSON tree would parse every page); docs/api.md, "Content reads".
        const options = {
          metadata: request.query.metadata ?? true,
          format: 'markdown' as const,
          generated: await references(request, scope),
        };
        return revisionView(scope.revision, scope.tree, {
          pages: await renderPages(db, scope, scope.tree.pages, options),
          files: await renderFiles(db, scope, scope.tree.files, options),
          appURL: scope.appURL,
          mergedFrom: await mergedFrom(db, scope.space, scope.revision, scope.base),
          gitFiles: await loadGitFiles(db, scope.tree),
        });
      },
    );

    app.get(
      `${prefix}/pages`,
      { schema: { params: scopeParams, querystring: PagesQuery, response: { 200: PagesResponse } } },
      async (request) => {
        const scope = await resolve(request, params(request));
        return {
          pages: await renderPages(db, scope, scope.tree.pages, {
            metadata: request.query.metadata ?? true,
            format: request.query.format,
            generated: await references(request, scope),
          }),
        };
      },
    );

    app.get(
      `${prefix}/files`,
      { schema: { params: scopeParams, querystring: FilesQuery, response: { 200: ListOf(RevisionFile) } } },
      async (request) => {
        const scope = await resolve(request, params(request));
        // Files are listed by id: a cursor stays valid across revisions (keyset on the id).
        const files = [...scope.tree.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const page = await collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => Promise.resolve(files.filter((f) => after === undefined || f.id > after[1]).slice(0, n)),
          key: (file) => ['', file.id],
          accept: (file) => file,
        });
        return { ...page, items: await renderFiles(db, scope, page.items, { metadata: request.query.metadata ?? true }) };
      },
    );

    app.get(
      `${prefix}/files/:fileId`,
      { schema: { params: withParams(scopeParams, { fileId: Id }), querystring: ContentQuery, response: { 200: RevisionFile } } },
      async (request) => {
        const scope = await resolve(request, params(request));
        const file = findFile(scope, params(request).fileId ?? '');
        const [view] = await renderFiles(db, scope, [file], { metadata: request.query.metadata ?? true });
        return view;
      },
    );

    app.get(
      `${prefix}/page/:pageId`,
      { schema: { params: withParams(scopeParams, { pageId: Id }), querystring: PageQuery, response: { 200: RevisionPage } } },
      async (request) => {
        const scope = await resolve(request, params(request));
        const pageId = params(request).pageId ?? '';
        const page = findPage(scope.tree.pages, pageId);
        const options = { metadata: request.query.metadata ?? true, format: request.query.format };
        if (!page) {
          const found = await findGenerated(request, scope, (p) => p.id === pageId);
          if (found) return renderGeneratedPage(scope, found.placed, options);
          throw new DocsyncError('not_found', `page ${pageId} not found in revision ${scope.revision.id}`);
        }
        const generated = page.type === 'computed' ? await references(request, scope) : undefined;
        const [view] = await renderPages(db, scope, [page], { ...options, generated });
        return view;
      },
    );

    app.get(
      `${prefix}/reusable-contents/:reusableContentId`,
      {
        schema: {
          params: withParams(scopeParams, { reusableContentId: Id }),
          querystring: ReusableContentQuery,
          response: { 200: RevisionReusableContent },
        },
      },
      async (request) => {
        const scope = await resolve(request, params(request));
        const content = findReusableContent(scope, params(request).reusableContentId ?? '');
        return renderReusableContent(db, scope, content, {
          metadata: request.query.metadata ?? true,
          markdown: request.query.format === 'markdown',
        });
      },
    );

    // The published spec reads a reusable content's JSON document by revision only.
    if (prefix.includes('/revisions/')) {
      app.get(
        `${prefix}/reusable-contents/:reusableContentId/document`,
        {
          schema: {
            params: withParams(scopeParams, { reusableContentId: Id }),
            querystring: DocumentQuery,
            response: { 200: JsonDocument },
          },
        },
        async (request) => {
          const scope = await resolve(request, params(request));
          return reusableContentDocument(db, findReusableContent(scope, params(request).reusableContentId ?? ''));
        },
      );
    }

    app.get(
      `${prefix}/path/*`,
      {
        schema: {
          params: Type.Object({ ...scopeParams.properties, '*': Type.String({ maxLength: 2048 }) }),
          querystring: PageQuery,
          response: { 200: RevisionPage },
        },
      },
      async (request) => {
        const scope = await resolve(request, params(request));
        const wanted = (params(request)['*'] ?? '').replace(/^\/+|\/+$/g, '');
        const paths = pagePaths(scope.tree.pages);
        let found: string | undefined;
        for (const [id, p] of paths) if (p.path === wanted) found ??= id;
        const page = found === undefined ? undefined : findPage(scope.tree.pages, found);
        // The published answer is a document or group page: a link page has no content at a path.
        if (!page || page.type === 'link' || page.type === 'computed') {
          const generated = await findGenerated(request, scope, (p) => p.path === wanted);
          if (generated)
            return renderGeneratedPage(scope, generated.placed, { metadata: request.query.metadata ?? true, format: request.query.format });
          throw new DocsyncError('not_found', `no page at path "${wanted}" in revision ${scope.revision.id}`);
        }
        const [view] = await renderPages(db, scope, [page], { metadata: request.query.metadata ?? true, format: request.query.format });
        return view;
      },
    );
  }
};
