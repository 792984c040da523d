import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

type SettingsTables = { settings: { key: string; value: string } };

const SECRET_KEY = 'signed_url_secret';

/** How long a signed download link works. */
export const SIGNED_URL_SECONDS = 3600;

/**
 * The secret signing download links. It lives in the database, created by whichever server
 * process needs it first, so every process sharing the database signs and checks alike and
 * links survive a restart.
 */
async function secret(db: Kysely<Database>): Promise<Buffer> {
  const settings = db.withTables<SettingsTables>();
  await settings
    .insertInto('settings')
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await settings.selectFrom('settings').select('value').where('key', '=', SECRET_KEY).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}

const mac = (key: Buffer, blob: string, expires: number) => createHmac('sha256', key).update(`pdf:${blob}:${expires}`).digest('hex');

/** `expires` (unix seconds) and `signature` for a link to `blob`. */
export async function signBlob(db: Kysely<Database>, blob: string, now: Date): Promise<{ expires: number; signature: string }> {
  const expires = Math.floor(now.getTime() / 1000) + SIGNED_URL_SECONDS;
  return { expires, signature: mac(await secret(db), blob, expires) };
}

/** Why a signed link is refused, or undefined when it is genuine and not expired. */
export async function signatureProblem(
  db: Kysely<Database>,
  blob: string,
  expires: number,
  signature: string,
  now: Date,
): Promise<string | undefined> {
  const expected = Buffer.from(mac(await secret(db), blob, expires), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'the link signature is not valid';
  if (expires * 1000 <= now.getTime()) return 'the link has expired; ask for a new one';
  return undefined;
}
