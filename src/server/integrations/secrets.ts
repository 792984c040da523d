import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

type SettingsTables = { settings: { key: string; value: string } };
const KEY_SETTING = 'integration_secrets_key';
/** 64 hex characters: the key that encrypts integration secrets, kept outside the database. */
export const SECRETS_KEY_ENV = 'DOCSYNC_SECRETS_KEY';

/**
 * The AES-256 key for integration secrets: `DOCSYNC_SECRETS_KEY` when set (so a copy of the
 * database alone does not reveal them), otherwise a key made once and kept in `settings`, shared
 * by every server process (which protects the secrets only from readers of the one table).
 */
async function key(db: Kysely<Database>): Promise<Buffer> {
  const fromEnv = process.env[SECRETS_KEY_ENV];
  if (fromEnv !== undefined && /^[0-9a-fA-F]{64}$/.test(fromEnv)) return Buffer.from(fromEnv, 'hex');
  const settings = db.withTables<SettingsTables>();
  await settings
    .insertInto('settings')
    .values({ key: KEY_SETTING, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await settings.selectFrom('settings').select('value').where('key', '=', KEY_SETTING).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}

/** AES-256-GCM of the JSON map, as `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export async function encryptSecrets(db: Kysely<Database>, secrets: Record<string, string>): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(db), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export async function decryptSecrets(db: Kysely<Database>, sealed: string): Promise<Record<string, string>> {
  const [, iv, tag, data] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', await key(db), Buffer.from(iv!, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(data!, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, string>;
}
