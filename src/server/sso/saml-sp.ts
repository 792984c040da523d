import type { Kysely } from 'kysely';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { Database } from '../store/schema.js';
import type { SamlProviderRow } from '../store/saml-providers.js';
import { serviceUrls } from './service-urls.js';

/** How long an AuthnRequest waits for its answer. */
export const REQUEST_LIFETIME_MS = 10 * 60 * 1000;
/** Tolerated difference between the identity provider's clock and ours. */
export const CLOCK_SKEW_MS = 60 * 1000;

/**
 * node-saml's cache of AuthnRequest ids, kept in the database: the process that checks the
 * answer's InResponseTo need not be the one that sent the request.
 */
function requestCache(db: Kysely<Database>, providerId: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      const createdAt = Date.now();
      await db
        .insertInto('saml_requests')
        .values({ id: key, provider_id: providerId, value, created_at: new Date(createdAt).toISOString() })
        .execute();
      return { value, createdAt };
    },
    async getAsync(key) {
      const row = await db
        .selectFrom('saml_requests')
        .select(['value', 'created_at'])
        .where('id', '=', key)
        .where('provider_id', '=', providerId)
        .executeTakeFirst();
      if (!row || Date.parse(row.created_at) + REQUEST_LIFETIME_MS < Date.now()) return null;
      return row.value;
    },
    async removeAsync(key) {
      if (key === null) return null;
      const row = await db.selectFrom('saml_requests').select('value').where('id', '=', key).executeTakeFirst();
      await db.deleteFrom('saml_requests').where('id', '=', key).execute();
      return row?.value ?? null;
    },
  };
}

/**
 * node-saml configured for one provider: responses must carry an assertion signed by the
 * provider's certificate, addressed to this server (audience = our entity id), within its time
 * window; an answer to a request (InResponseTo) must answer one we sent; the issuer must be the
 * provider's entity id when one is set. node-saml reads the system clock for the time window.
 */
export function samlFor(db: Kysely<Database>, provider: SamlProviderRow, base: string): SAML {
  const urls = serviceUrls(provider, base);
  return new SAML({
    idpCert: provider.certificate ?? '',
    issuer: urls.entityID,
    audience: urls.entityID,
    callbackUrl: urls.acsURL,
    ...(provider.sso_url !== null ? { entryPoint: provider.sso_url } : {}),
    ...(provider.entity_id !== null ? { idpIssuer: provider.entity_id } : {}),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    cacheProvider: requestCache(db, provider.id),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  });
}

/**
 * The service provider's metadata XML. It names only this server, so a pending provider (no
 * certificate yet: identity providers usually want this metadata before they hand theirs out) has
 * it too; node-saml refuses to be built without an identity-provider certificate, which the
 * metadata never reads, so a pending provider gets a placeholder (a 500 before; the route fuzz found it).
 */
export function serviceProviderMetadata(db: Kysely<Database>, provider: SamlProviderRow, base: string): string {
  const certificate = provider.certificate !== null && provider.certificate !== '' ? provider.certificate : 'pending';
  return samlFor(db, { ...provider, certificate }, base).generateServiceProviderMetadata(null, null);
}
