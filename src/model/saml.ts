import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp, Uri } from './common.js';
import { MemberRoleOrGuest } from './roles.js';
import { Team } from './team.js';

export const SAML_PROVIDER_STATUSES = ['active', 'pending'] as const;

const Label = Type.String({ minLength: 1, maxLength: 30 });
const EntityID = Type.String({ maxLength: 1024 });
const Certificate = Type.String({ maxLength: 10000 });
const SsoURL = Type.String({ format: 'uri', maxLength: 2048 });

/** A SAML 2.0 identity provider of an organization (object `saml-provider`). */
export const SAMLProvider = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  /** Absent until set: a provider without it is `pending`. */
  ssoURL: Type.Optional(Uri),
  /** The identity provider's entity id; empty until set. */
  entityID: Type.String(),
  /** The identity provider's signing certificate (PEM); empty until set. */
  certificate: Type.String(),
  defaultTeam: Type.Optional(Team),
  defaultRole: MemberRoleOrGuest,
  createdAt: Timestamp,
  status: Type.Union(SAML_PROVIDER_STATUSES.map((s) => Type.Literal(s))),
  /** This server as the service provider. */
  service: Type.Object({ acsURL: Uri, startURL: Uri, entityID: Type.String() }),
  urls: Type.Object({ location: Uri }),
});
export type SAMLProvider = Static<typeof SAMLProvider>;

export const CreateSAMLProvider = Type.Object(
  {
    label: Label,
    entityID: Type.Optional(EntityID),
    certificate: Type.Optional(Certificate),
    ssoURL: Type.Optional(SsoURL),
    defaultTeam: Type.Optional(Id),
    defaultRole: Type.Optional(MemberRoleOrGuest),
  },
  { additionalProperties: false },
);
export type CreateSAMLProvider = Static<typeof CreateSAMLProvider>;
export const UpdateSAMLProvider = Type.Partial(CreateSAMLProvider, { additionalProperties: false });
export type UpdateSAMLProvider = Static<typeof UpdateSAMLProvider>;

export const SAMLProviderParams = Type.Object({ organizationId: Id, samlProviderId: Id });

/** An item of `GET /orgs/{orgId}/sso`. */
export const SSOProviderLogin = Type.Object({ id: Type.String(), label: Type.String(), startURL: Uri });
