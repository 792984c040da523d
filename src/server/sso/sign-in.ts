import type { Kysely } from 'kysely';
import type { Profile } from '@node-saml/node-saml';
import { randomBytes } from 'node:crypto';
import { isRole, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { SamlProviderRow } from '../store/saml-providers.js';
import { createToken, createUser, findUserByEmail, type UserRow } from '../store/users.js';
import { findMember, upsertMember } from '../store/organizations.js';
import { setMemberSso } from '../store/members.js';
import { findTeam } from '../store/teams.js';
import { changeTeamMembers } from '../store/team-members.js';
import { inTransaction } from '../store/transaction.js';

/** Why a signed, valid response still signs no one in. */
export class SignInRefused extends Error {}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = ['displayName', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (value: unknown) =>
  typeof value === 'string' ? value.trim() : Array.isArray(value) && typeof value[0] === 'string' ? value[0].trim() : undefined;

/** The person's e-mail: an e-mail attribute, or the NameID when it is one. */
export function emailOf(profile: Profile): string {
  for (const name of EMAIL_ATTRIBUTES) {
    const value = text(profile[name]);
    if (value && EMAIL.test(value)) return value.toLowerCase();
  }
  if (EMAIL.test(profile.nameID)) return profile.nameID.toLowerCase();
  throw new SignInRefused('the assertion names no e-mail address (no email attribute, and the NameID is not one)');
}

function nameOf(profile: Profile, email: string): string {
  for (const name of NAME_ATTRIBUTES) {
    const value = text(profile[name]);
    if (value) return value.slice(0, 255);
  }
  return email.split('@')[0]!;
}

/** The assertion's ID and when it stops being valid, read from the verified assertion XML. */
export function assertionIdentity(profile: Profile, now: Date): { id: string; expiresAt: string } {
  const xml = profile.getAssertionXml?.() ?? '';
  const id = /<(?:\w+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new SignInRefused('the assertion has no ID');
  const until = /\bNotOnOrAfter="([^"]+)"/.exec(xml)?.[1];
  const expiresAt = until && !Number.isNaN(Date.parse(until)) ? new Date(until) : new Date(now.getTime() + 24 * 3600 * 1000);
  return { id, expiresAt: expiresAt.toISOString() };
}

export interface SignedIn {
  user: UserRow;
  /** A new bearer token (an API token); the web session opened on it ends when it is revoked. */
  token: string;
  tokenId: string;
  created: boolean;
}

/**
 * Signs in the person a verified assertion names. The assertion's issuer must be the provider's
 * entityID when one is set. The assertion is used once (its ID is
 * recorded per provider: a replay is refused); the user is found by e-mail or created; a new
 * member of the organization gets the provider's `defaultRole` and `defaultTeam`; every member
 * signing in this way is marked an SSO member. One transaction, so a replay racing the first
 * use loses on the primary key.
 */
export async function signIn(db: Kysely<Database>, provider: SamlProviderRow, profile: Profile, now: Date): Promise<SignedIn> {
  // node-saml checks the issuer of logout messages only; the signed assertion's issuer is ours to check.
  if (provider.entity_id !== null && profile.issuer !== provider.entity_id) {
    throw new SignInRefused(
      `the assertion's issuer is ${JSON.stringify(profile.issuer)}, not the provider's entityID ${JSON.stringify(provider.entity_id)}`,
    );
  }
  const email = emailOf(profile);
  const assertion = assertionIdentity(profile, now);
  const iso = now.toISOString();
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('saml_assertions').where('expires_at', '<', iso).execute();
    const used = await trx
      .insertInto('saml_assertions')
      .values({ provider_id: provider.id, assertion_id: assertion.id, expires_at: assertion.expiresAt })
      .onConflict((oc) => oc.columns(['provider_id', 'assertion_id']).doNothing())
      .executeTakeFirst();
    if (Number(used.numInsertedOrUpdatedRows ?? 0) !== 1) throw new SignInRefused(`assertion ${assertion.id} was already used (replay)`);
    let user = await findUserByEmail(trx, email);
    const created = !user;
    user ??= await createUser(trx, { email, displayName: nameOf(profile, email) }, iso);
    const member = await findMember(trx, provider.org_id, user.id);
    if (member?.disabled === 1) throw new SignInRefused(`${email} is a disabled member of the organization`);
    if (!member) {
      const role: Role | null = isRole(provider.default_role) ? provider.default_role : null;
      await upsertMember(trx, { orgId: provider.org_id, userId: user.id, role }, iso);
      const team = provider.default_team === null ? undefined : await findTeam(trx, provider.org_id, provider.default_team);
      if (team) await changeTeamMembers(trx, team.id, { upsert: [{ userId: user.id, role: undefined }], remove: [] }, iso);
    }
    await setMemberSso(trx, provider.org_id, user.id);
    const token = `sso_${randomBytes(24).toString('base64url')}`;
    const tokenId = await createToken(trx, { userId: user.id, token, label: `SSO sign-in (${provider.label})` }, iso);
    return { user, token, tokenId, created };
  });
}
