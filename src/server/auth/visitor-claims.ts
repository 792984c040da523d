import type { Kysely } from 'kysely';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findOrgKey, insertOrgKey, type OrgKeyRow } from '../store/org-keys.js';
import { newId } from '../util/ids.js';

/** ES256: small keys and signatures, and every JOSE library verifies it. */
export const VISITOR_CLAIMS_ALG = 'ES256';
/** How long the claims of one ping stay valid. */
export const VISITOR_CLAIMS_TTL_SECONDS = 60 * 60;

/** The organization's signing key, created on first use. */
async function orgKey(db: Kysely<Database>, orgId: string, now: string): Promise<OrgKeyRow> {
  const found = await findOrgKey(db, orgId);
  if (found) return found;
  const { publicKey, privateKey } = await generateKeyPair(VISITOR_CLAIMS_ALG, { extractable: true });
  const kid = newId();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: VISITOR_CLAIMS_ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: VISITOR_CLAIMS_ALG };
  return insertOrgKey(db, {
    org_id: orgId,
    kid,
    private_jwk: JSON.stringify(privateJwk),
    public_jwk: JSON.stringify(publicJwk),
    created_at: now,
  });
}

/** The organization's public keys as a JWK Set (one key). */
export async function organizationJwks(db: Kysely<Database>, orgId: string, now: string): Promise<{ keys: JWK[] }> {
  const key = await orgKey(db, orgId, now);
  return { keys: [JSON.parse(key.public_jwk) as JWK] };
}

export interface VisitorClaimsInput {
  orgId: string;
  /** The API URL of the organization: the token's issuer. */
  issuer: string;
  user: { id: string; email: string; displayName: string };
  role: Role | null;
  teams: string[];
  now: Date;
}

/** The `serviceVisitorClaims` JWT of `POST /v1/orgs/{id}/ping` (claims in docs/api.md). */
export async function signVisitorClaims(db: Kysely<Database>, input: VisitorClaimsInput): Promise<string> {
  const key = await orgKey(db, input.orgId, input.now.toISOString());
  const privateKey = await importJWK(JSON.parse(key.private_jwk) as JWK, VISITOR_CLAIMS_ALG);
  const iat = Math.floor(input.now.getTime() / 1000);
  return new SignJWT({
    organization: input.orgId,
    role: input.role ?? 'guest',
    teams: input.teams,
    email: input.user.email,
    name: input.user.displayName,
  })
    .setProtectedHeader({ alg: VISITOR_CLAIMS_ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(input.issuer)
    .setAudience(input.orgId)
    .setSubject(input.user.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + VISITOR_CLAIMS_TTL_SECONDS)
    .sign(privateKey);
}
