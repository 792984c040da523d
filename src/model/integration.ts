import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uri } from './common.js';
import { Organization } from './organization.js';

export const INTEGRATION_NAME_PATTERN = '^[a-zA-Z0-9-_.]+$';
export const IntegrationName = Type.String({ minLength: 1, maxLength: 100, pattern: INTEGRATION_NAME_PATTERN });
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
/** The published spec's scopes and those of the edition the seed follows (api-gaps 2.2): the union. */
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
  'space:views:read',
  'space:script:inject',
  'space:script:cookies',
  'space:visitor:auth',
] as const;
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other', 'gitsync'] as const;

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
export const IntegrationTarget = literals(INTEGRATION_TARGETS);
export const IntegrationVisibility = literals(INTEGRATION_VISIBILITIES);
export const IntegrationScope = literals(INTEGRATION_SCOPES);
export const IntegrationCategory = literals(INTEGRATION_CATEGORIES);

const closed = { additionalProperties: false } as const;
export const IntegrationBlock = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    urlUnfurl: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 100 })),
    markdown: Type.Optional(Type.Object({ codeblock: Type.String({ maxLength: 100 }), body: Type.String({ maxLength: 100 }) }, closed)),
  },
  closed,
);
export const IntegrationContentSource = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(Type.String({ maxLength: 2048 })),
    configuration: Type.Object({ componentId: Type.String({ minLength: 1, maxLength: 100 }) }, closed),
  },
  closed,
);
const ConfigurationProperty = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 100 })),
    type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('button')]),
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    completion_url: Type.Optional(Type.String({ maxLength: 2048 })),
    enum: Type.Optional(Type.Array(Type.String())),
    callback_url: Type.Optional(Type.String({ maxLength: 2048 })),
    button_text: Type.Optional(Type.String({ maxLength: 100 })),
  },
  closed,
);
const Configuration = Type.Object(
  { properties: Type.Record(Type.String({ maxLength: 100 }), ConfigurationProperty), required: Type.Optional(Type.Array(Type.String())) },
  closed,
);
export const IntegrationConfigurations = Type.Object(
  { account: Type.Optional(Configuration), space: Type.Optional(Configuration), site: Type.Optional(Configuration) },
  closed,
);
export const IntegrationExternalLink = Type.Object(
  { url: Type.String({ format: 'uri', maxLength: 2048 }), label: Type.String({ minLength: 1, maxLength: 100 }) },
  closed,
);

/** Base64 text of an image: the icon, or a preview image (at most 2 MiB once decoded). */
const Base64Image = Type.String({ minLength: 4, maxLength: 2_800_000, pattern: '^[A-Za-z0-9+/]+={0,2}$' });

export const PublishIntegration = Type.Object(
  {
    runtime: Type.Optional(Type.Union([Type.Literal('v1'), Type.Literal('v2')])),
    icon: Type.Optional(Base64Image),
    title: Type.String({ minLength: 2, maxLength: 30 }),
    description: Type.String({ maxLength: 100 }),
    summary: Type.Optional(Type.String({ maxLength: 2048 })),
    previewImages: Type.Optional(Type.Array(Base64Image, { maxItems: 3 })),
    visibility: Type.Optional(IntegrationVisibility),
    target: Type.Optional(IntegrationTarget),
    scopes: Type.Optional(Type.Array(IntegrationScope, { maxItems: 50 })),
    categories: Type.Optional(Type.Array(IntegrationCategory, { maxItems: 10 })),
    blocks: Type.Optional(Type.Array(IntegrationBlock, { maxItems: 100 })),
    contentSources: Type.Optional(Type.Array(IntegrationContentSource, { maxItems: 100 })),
    externalLinks: Type.Optional(Type.Array(IntegrationExternalLink, { maxItems: 20 })),
    configurations: Type.Optional(IntegrationConfigurations),
    script: Type.String({ minLength: 1, maxLength: 5 * 1024 * 1024 }),
    organization: Type.String({ minLength: 1, maxLength: 64 }),
    secrets: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 10_000 }))),
    contentSecurityPolicy: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  closed,
);
export type PublishIntegration = Static<typeof PublishIntegration>;

/** A published integration (object `integration`). Scripts are stored and served, never run. */
export const Integration = Type.Object({
  object: Type.Literal('integration'),
  name: Type.String(),
  version: Type.Number(),
  title: Type.String(),
  description: Type.String(),
  summary: Type.Optional(Type.String()),
  previewImages: Type.Array(Uri),
  target: IntegrationTarget,
  verified: Type.Boolean(),
  visibility: IntegrationVisibility,
  scopes: Type.Array(Type.String()),
  categories: Type.Array(Type.String()),
  blocks: Type.Array(Type.Unknown()),
  contentSources: Type.Array(Type.Unknown()),
  configurations: Type.Unknown(),
  externalLinks: Type.Array(Type.Unknown()),
  owner: Organization,
  urls: Type.Object({ location: Uri, icon: Type.Optional(Uri), app: Uri, assets: Uri, publicEndpoint: Uri, publicContentEndpoint: Uri }),
  permissions: Type.Object({ admin: Type.Boolean(), install: Type.Boolean() }),
  contentSecurityPolicy: Type.Optional(Type.String()),
});
export type Integration = Static<typeof Integration>;

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
export const IntegrationListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    search: Type.Optional(Type.String({ maxLength: 100 })),
    category: Type.Optional(IntegrationCategory),
    blockDomain: Type.Optional(IntegrationName),
    blocks: Type.Optional(Bool),
    contentSources: Type.Optional(Bool),
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    scope: Type.Optional(IntegrationScope),
    target: Type.Optional(IntegrationTarget),
  },
  closed,
);

export const IntegrationParams = Type.Object({ integrationName: IntegrationName });

export const INSTALLATION_SELECTIONS = ['all', 'selected'] as const;
/** Whether an installation reaches every space (site) of its organization or only those it is installed on. */
export const InstallationSelection = literals(INSTALLATION_SELECTIONS);

/** An organization's installation of an integration. */
export const IntegrationInstallation = Type.Object({
  object: Type.Literal('integration-installation'),
  id: Type.String(),
  integration: Type.String(),
  status: Type.Literal('active'),
  space_selection: InstallationSelection,
  site_selection: InstallationSelection,
  spaces: Type.Number(),
  sites: Type.Number(),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  externalIds: Type.Array(Type.String()),
  target: Type.Object({ organization: Type.String() }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Uri, app: Uri, publicEndpoint: Uri, publicContentEndpoint: Uri }),
});
export const InstallIntegration = Type.Object({ organization: Type.String({ minLength: 1, maxLength: 64 }) }, closed);
export const InstallationListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    externalId: Type.Optional(Type.String({ maxLength: 512 })),
  },
  closed,
);
export const InstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
});
