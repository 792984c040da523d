import { Type, type Static } from '@sinclair/typebox';
import { Timestamp, Uri } from './common.js';
import { MemberRoleOrGuest } from './roles.js';

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, pattern: '\\S.*\\S' });
export const OrganizationHostname = Type.String({ minLength: 3, maxLength: 32 });
export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;
export const ORGANIZATION_COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;
export const BILLING_PRODUCTS = [
  'free_2024',
  'plus_2024',
  'pro_2024',
  'enterprise_2024',
  'community_2024',
  'free',
  'plus',
  'pro',
  'internal',
] as const;
export const TRIAL_STATUSES = ['notapplicable', 'none', 'active', 'ended', 'expired'] as const;

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const OrganizationDefaultContent = Type.Object({ type: Type.Literal('site'), site: Type.String() });

export const OrganizationPermissions = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  admin: Type.Boolean(),
  ownTeam: Type.Boolean(),
  createContent: Type.Boolean(),
  createOpenAPISpec: Type.Boolean(),
  ingestConversations: Type.Boolean(),
  viewBilling: Type.Boolean(),
  listMembers: Type.Boolean(),
  listTeams: Type.Boolean(),
  listIntegrations: Type.Boolean(),
  listInstallations: Type.Boolean(),
  installIntegration: Type.Boolean(),
});
export type OrganizationPermissions = Static<typeof OrganizationPermissions>;

export const Organization = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String(),
  title: Type.String(),
  createdAt: Timestamp,
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String()),
  type: literals(ORGANIZATION_TYPES),
  useCase: Type.Optional(literals(ORGANIZATION_USE_CASES)),
  communityType: Type.Optional(literals(ORGANIZATION_COMMUNITY_TYPES)),
  defaultRole: Type.Optional(MemberRoleOrGuest),
  defaultContent: Type.Optional(OrganizationDefaultContent),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Boolean(),
  plan: literals(BILLING_PRODUCTS),
  mergeRules: Type.Object({ type: Type.Literal('none') }),
  urls: Type.Object({ location: Uri, app: Uri, logo: Type.Optional(Uri) }),
  trial: Type.Object({ status: literals(TRIAL_STATUSES), count: Type.Integer() }),
  customHostname: Type.Optional(Type.String()),
  internal_isOnNewTrial: Type.Optional(Type.Boolean()),
  permissions: OrganizationPermissions,
});
export type Organization = Static<typeof Organization>;

/** PATCH /v1/orgs/{orgId}: every field optional, unknown fields rejected. */
export const UpdateOrganization = Type.Object(
  {
    title: Type.Optional(OrganizationTitle),
    emailDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255, format: 'hostname' }), { maxItems: 100 })),
    hostname: Type.Optional(OrganizationHostname),
    defaultRole: Type.Optional(MemberRoleOrGuest),
    defaultContent: Type.Optional(Type.Union([OrganizationDefaultContent, Type.Null()])),
    logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateOrganization = Static<typeof UpdateOrganization>;
