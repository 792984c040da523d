import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Timestamp, Uri } from './common.js';
import { DefaultLevel } from './roles.js';
import { Space } from './space.js';

/*
 * Docs sites (seed Part 2, "Sites" ... "Site spaces"; published spec `Site`, `SiteSection`,
 * `SiteSectionGroup`, `SiteSpace`, `ShareLink`, `PublishedContentSite`).
 */

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SiteType = literals(SITE_TYPES);
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const SiteVisibility = literals(SITE_VISIBILITIES);
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export const AgentsContext = literals(AGENTS_CONTEXTS);

export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SiteBasename = Type.String({ minLength: 1, maxLength: 100 });
export const SITE_HOSTNAME_PATTERN = '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';
export const SiteHostname = Type.String({ maxLength: 512, pattern: SITE_HOSTNAME_PATTERN });
export const SITE_PROXY_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';
export const SiteProxyOrigin = Type.String({ maxLength: 512, pattern: SITE_PROXY_PATTERN });
export const SiteSectionTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SiteSectionGroupTitle = Type.String({ minLength: 1, maxLength: 100 });
export const SitePath = Type.String({ minLength: 1, maxLength: 100 });
/** A visibility condition (docs/api.md, "Conditions"); parsed on write. */
export const Condition = Type.String({ minLength: 1, maxLength: 1024 });
export const IconName = Type.String({ maxLength: 50 });
export const SiteSectionDescription = Type.String({ maxLength: 256 });

export const SitePermissions = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  edit: Type.Boolean(),
  create: Type.Boolean(),
  admin: Type.Boolean(),
  installIntegration: Type.Boolean(),
  viewAdaptiveSchema: Type.Boolean(),
  editAdaptiveSchema: Type.Boolean(),
});
export type SitePermissions = Static<typeof SitePermissions>;

/** `app` and `published` on every site object, so a client always knows where it is served. */
const PublishedUrls = Type.Object({ app: Uri, published: Uri });

export const Site = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: SiteType,
  appliedType: SiteType,
  title: Type.String(),
  hostname: Type.Optional(Type.String()),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: SiteVisibility,
  defaultLevel: DefaultLevel,
  permissions: SitePermissions,
  published: Type.Boolean(),
  siteSpaces: Type.Number(),
  createdAt: Timestamp,
  adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
  agentsContext: AgentsContext,
  features: Type.Array(Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean() })),
  urls: Type.Object({ location: Uri, app: Uri, preview: Uri, published: Uri }),
});
export type Site = Static<typeof Site>;

export const SiteSpace = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: Space,
  title: Type.String(),
  default: Type.Boolean(),
  condition: Type.Optional(Type.String()),
  draft: Type.Boolean(),
  hidden: Type.Boolean(),
  urls: PublishedUrls,
});
export type SiteSpace = Static<typeof SiteSpace>;

export const SiteSection = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  default: Type.Boolean(),
  draft: Type.Boolean(),
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  siteSpaces: Type.Array(SiteSpace),
  urls: PublishedUrls,
});
export type SiteSection = Static<typeof SiteSection>;

export const SiteSectionGroup = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  icon: Type.Optional(Type.String()),
  draft: Type.Boolean(),
  /** Deprecated in the published spec in favour of `children`; both hold the group's sections. */
  sections: Type.Array(SiteSection),
  children: Type.Array(SiteSection),
});
export type SiteSectionGroup = Static<typeof SiteSectionGroup>;

export const SiteStructure = Type.Union([
  Type.Object({ type: Type.Literal('sections'), structure: Type.Array(Type.Union([SiteSection, SiteSectionGroup])) }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpace) }),
]);
export type SiteStructure = Static<typeof SiteStructure>;

export const ShareLink = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  createdAt: Timestamp,
  name: Type.String(),
  active: Type.Boolean(),
  urls: Type.Object({ published: Uri }),
});
export type ShareLink = Static<typeof ShareLink>;

export const PublishedContentSite = Type.Object({
  object: Type.Literal('published-content-site'),
  site: Site,
  structure: SiteStructure,
  // The published profile's customization settings: docsync has none of its own yet, so these
  // are the defaults (server/sites/customizations.ts), passed through as they are.
  customizations: Type.Object({ site: Type.Unknown(), siteSpaces: Type.Record(Type.String(), Type.Unknown()) }),
  scripts: Type.Array(Type.Unknown()),
});
export type PublishedContentSite = Static<typeof PublishedContentSite>;

export const SiteAdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: Type.Unknown(),
  updatedAt: Timestamp,
});
export type SiteAdaptiveSchema = Static<typeof SiteAdaptiveSchema>;

export const SiteAdaptiveTemplateCondition = Type.Object({ description: Type.String(), condition: Type.String() });

// ---- request bodies ----

/** `spaces`: space ids to add at the root, or `empty` / `sample` to create a new space (seed, 0.130). */
export const CreateSite = Type.Object(
  {
    type: Type.Optional(SiteType),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    spaces: Type.Optional(
      Type.Union([
        Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }),
        Type.Literal('empty'),
        Type.Literal('sample'),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type CreateSite = Static<typeof CreateSite>;

export const UpdateSite = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    basename: Type.Optional(SiteBasename),
    /** Extension: the seed shows `hostname` on the Site but no way to set it (docs/api.md). */
    hostname: Type.Optional(Type.Union([SiteHostname, Type.Null()])),
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
    agentsContext: Type.Optional(AgentsContext),
    defaultSiteSpace: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    defaultSiteSection: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    proxy: Type.Optional(Type.Union([SiteProxyOrigin, Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateSite = Static<typeof UpdateSite>;

export const CreateSiteSection = Type.Object(
  {
    spaceId: Type.String({ minLength: 1, maxLength: 64 }),
    title: Type.Optional(Type.Union([SiteSectionTitle, Type.Null()])),
    icon: Type.Optional(Type.Union([IconName, Type.Null()])),
  },
  { additionalProperties: false },
);

export const UpdateSiteSection = Type.Object(
  {
    title: Type.Optional(SiteSectionTitle),
    path: Type.Optional(SitePath),
    defaultSiteSpace: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    condition: Type.Optional(Type.Union([Condition, Type.Null()])),
    icon: Type.Optional(Type.Union([IconName, Type.Null()])),
    description: Type.Optional(Type.Union([SiteSectionDescription, Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateSiteSection = Static<typeof UpdateSiteSection>;

export const CreateSiteSectionGroup = Type.Object(
  {
    title: SiteSectionGroupTitle,
    icon: Type.Optional(Type.Union([IconName, Type.Null()])),
    sections: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const UpdateSiteSectionGroup = Type.Object(
  { title: Type.Optional(SiteSectionGroupTitle), icon: Type.Optional(Type.Union([IconName, Type.Null()])) },
  { additionalProperties: false },
);

export const AddSiteSpace = Type.Object(
  { spaceId: Type.String({ minLength: 1, maxLength: 64 }), sectionId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);

export const UpdateSiteSpace = Type.Object(
  {
    path: Type.Optional(SitePath),
    condition: Type.Optional(Type.Union([Condition, Type.Null()])),
    spaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type UpdateSiteSpace = Static<typeof UpdateSiteSpace>;

const position = <T extends TSchema>(item: T) =>
  Type.Object({ before: Type.Optional(item), after: Type.Optional(item) }, { additionalProperties: false });

const SectionPointer = Type.Object(
  { type: Type.Literal('site-section'), siteSection: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
const SiteSpacePointer = Type.Object(
  { type: Type.Literal('site-space'), siteSpace: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

/** The three deprecated move operations (seed), each with its own pointer shape. */
export const MoveSiteSection = Type.Object({ position: Type.Optional(position(SectionPointer)) }, { additionalProperties: false });
export const MoveSiteSpace = Type.Object({ position: Type.Optional(position(SiteSpacePointer)) }, { additionalProperties: false });
const GroupMovePointer = Type.Object(
  { type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]), id: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export const MoveSiteSectionGroup = Type.Object({ position: Type.Optional(position(GroupMovePointer)) }, { additionalProperties: false });

export const SITE_STRUCTURE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export const SiteStructureItemPointer = Type.Object(
  { type: literals(SITE_STRUCTURE_ITEM_TYPES), id: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export type SiteStructureItemPointer = Static<typeof SiteStructureItemPointer>;
/** `PATCH .../structure/sort` (published spec `sortSiteStructure`): without `position`, to the end. */
export const SortSiteStructure = Type.Object(
  { item: SiteStructureItemPointer, position: Type.Optional(position(SiteStructureItemPointer)) },
  { additionalProperties: false },
);
export type SortSiteStructure = Static<typeof SortSiteStructure>;
