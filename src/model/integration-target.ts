import { Type, type Static } from '@sinclair/typebox';
import { Id, Uri } from './common.js';
import { Integration, IntegrationInstallation, IntegrationName, InstallationSelection } from './integration.js';
import { Space } from './space.js';
import { Site } from './site.js';

const closed = { additionalProperties: false } as const;
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
const Page = Type.Optional(Type.String({ minLength: 1, maxLength: 512 }));
const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 }));

/** At most 5 external ids (the published `IntegrationInstallationExternalIds`). */
export const ExternalIds = Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 5 });
export const InstallationConfiguration = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown());

export const UpdateIntegrationInstallation = Type.Object(
  {
    externalIds: Type.Optional(ExternalIds),
    configuration: Type.Optional(InstallationConfiguration),
    space_selection: Type.Optional(InstallationSelection),
    site_selection: Type.Optional(InstallationSelection),
  },
  closed,
);
export type UpdateIntegrationInstallation = Static<typeof UpdateIntegrationInstallation>;

/** The body of PATCH on an installation's space or site. */
export const UpdateIntegrationTargetInstallation = Type.Object(
  { externalIds: Type.Optional(ExternalIds), configuration: Type.Optional(InstallationConfiguration) },
  closed,
);
export type UpdateIntegrationTargetInstallation = Static<typeof UpdateIntegrationTargetInstallation>;

export const InstallOnSpace = Type.Object({ space: Id }, closed);
export const InstallOnSite = Type.Object({ siteId: Id }, closed);

const TargetBase = {
  integration: Type.String(),
  installation: Type.String(),
  status: Type.Literal('active'),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  externalIds: Type.Array(Type.String()),
  urls: Type.Object({ location: Uri, publicEndpoint: Uri, publicContentEndpoint: Uri }),
};
/** `space` is the space's id, or with `extended=true` the space. */
export const IntegrationSpaceInstallation = Type.Object({ ...TargetBase, space: Type.Union([Type.String(), Space]) });
export type IntegrationSpaceInstallation = Static<typeof IntegrationSpaceInstallation>;
export const IntegrationSiteInstallation = Type.Object({ ...TargetBase, site: Type.Union([Type.String(), Site]) });
export type IntegrationSiteInstallation = Static<typeof IntegrationSiteInstallation>;

export const ExtendedQuery = Type.Object({ extended: Type.Optional(Bool) }, closed);
export const TargetListQuery = Type.Object({ page: Page, limit: Limit, extended: Type.Optional(Bool) }, closed);
export const IntegrationTargetListQuery = Type.Object(
  { page: Page, limit: Limit, extended: Type.Optional(Bool), externalId: Type.Optional(Type.String({ maxLength: 512 })) },
  closed,
);

const InstallationIdParam = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' });
export const InstallationSpaceParams = Type.Object({ integrationName: IntegrationName, installationId: InstallationIdParam, spaceId: Id });
export const InstallationSiteParams = Type.Object({ integrationName: IntegrationName, installationId: InstallationIdParam, siteId: Id });

/** The published `APITemporaryToken`. */
export const APITemporaryToken = Type.Object({ token: Type.String() });

/** An item of an organization's installations listing. */
export const OrganizationInstallation = Type.Object({ installation: IntegrationInstallation, integration: Integration });

export const InstallationStatus = Type.Object({ status: Type.Literal('active') });

/** The published `InstalledIntegration`: an installation's status and the resource it targets. */
export const InstalledIntegration = Type.Object({
  status: Type.Literal('active'),
  integration: Integration,
  target: Type.Union([
    Type.Object({ type: Type.Literal('organization'), organizationId: Type.String() }),
    Type.Object({ type: Type.Literal('site'), siteId: Type.String() }),
    Type.Object({ type: Type.Literal('space'), spaceId: Type.String() }),
  ]),
});
export type InstalledIntegration = Static<typeof InstalledIntegration>;

export const InstalledIntegrationsQuery = Type.Object(
  {
    page: Page,
    limit: Limit,
    target: Type.Optional(Type.Union([Type.Literal('organization'), Type.Literal('space'), Type.Literal('site')])),
    site: Type.Optional(Id),
    space: Type.Optional(Id),
  },
  closed,
);
export const SearchQuery = Type.Object({ search: Type.Optional(Type.String({ maxLength: 100 })) }, closed);
export const SearchListQuery = Type.Object({ page: Page, limit: Limit, search: Type.Optional(Type.String({ maxLength: 100 })) }, closed);
