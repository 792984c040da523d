import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uri } from './common.js';

/** The seed's pattern (lower case); the published 0.202 spec also allows upper case. */
export const OPENAPI_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const OpenAPISpecSlug = Type.String({ minLength: 1, maxLength: 100, pattern: OPENAPI_SLUG_PATTERN });

export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type OpenAPIProcessingState = (typeof OPENAPI_PROCESSING_STATES)[number];
export const OPENAPI_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type OpenAPIErrorCode = (typeof OPENAPI_ERROR_CODES)[number];

const Url2048 = Type.String({ format: 'uri', maxLength: 2048 });

/** Where a spec comes from: a URL the server fetches, or the document itself as text. */
export const OpenAPISpecSource = Type.Union([
  Type.Object({ url: Url2048 }, { additionalProperties: false }),
  Type.Object({ text: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024 }) }, { additionalProperties: false }),
]);
export type OpenAPISpecSource = Static<typeof OpenAPISpecSource>;

export const CreateOpenAPISpec = Type.Object({ slug: OpenAPISpecSlug, source: OpenAPISpecSource }, { additionalProperties: false });
export const PutOpenAPISpec = Type.Object({ source: OpenAPISpecSource }, { additionalProperties: false });

export const OpenAPIErrorObject = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });
export type OpenAPIErrorObject = Static<typeof OpenAPIErrorObject>;

/** An OpenAPI specification of an organization (object `openapi-spec`). */
export const OpenAPISpec = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: Type.String(),
  sourceURL: Type.Optional(Uri),
  processingState: Type.Union(OPENAPI_PROCESSING_STATES.map((s) => Type.Literal(s))),
  visibility: Type.Literal('private'),
  lastVersion: Type.Optional(Type.String()),
  lastProcessedAt: Type.Optional(Timestamp),
  lastProcessErrorCode: Type.Optional(Type.Union(OPENAPI_ERROR_CODES.map((c) => Type.Literal(c)))),
  lastProcessedErrors: Type.Optional(Type.Array(OpenAPIErrorObject)),
  lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Uri, app: Uri }),
});
export type OpenAPISpec = Static<typeof OpenAPISpec>;

/** One processed content of a spec (object `openapi-spec-version`). */
export const OpenAPISpecVersion = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Timestamp,
  url: Uri,
  urls: Type.Object({ location: Uri }),
});
export type OpenAPISpecVersion = Static<typeof OpenAPISpecVersion>;

/**
 * A version's content: `filesystem` maps each file's path (the entry document first, then the
 * files its `$ref`s reached, relative to the entry's folder) to the document parsed from it;
 * `url` (seed) and `urls` (published spec) say where it can be read.
 */
export const OpenAPISpecContent = Type.Object({
  filesystem: Type.Object({
    entry: Type.String(),
    files: Type.Record(Type.String(), Type.Unknown()),
  }),
  url: Uri,
  urls: Type.Object({ source: Uri, public: Type.Null() }),
});
export type OpenAPISpecContent = Static<typeof OpenAPISpecContent>;

export const OpenAPISpecParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
  specSlug: Type.String({ minLength: 1, maxLength: 100 }),
});
export const OpenAPISpecVersionParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
  specSlug: Type.String({ minLength: 1, maxLength: 100 }),
  versionId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
});
