import { findUserByEmail, openDatabase, systemClock, type StoreDb, type UserRow } from '../../server/index.js';
import { ExitError, EXIT } from '../exit.js';
import type { OutputOptions } from '../output.js';
import { storeOptionsFromEnv } from './store-options.js';

/** Options every `docsync admin` command takes. */
export interface AdminOptions extends OutputOptions {
  data: string;
}

/** Opens the store, runs one admin operation, and closes the store whatever happened. */
export async function withStore<T>(options: AdminOptions, fn: (db: StoreDb, now: string) => Promise<T>): Promise<T> {
  const db = await openDatabase(storeOptionsFromEnv(options.data));
  try {
    return await fn(db.kysely, systemClock.now().toISOString());
  } finally {
    await db.close();
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Checks the shape of an e-mail address given as `option`; returns it trimmed. */
export function parseEmail(value: string, option: string): string {
  const email = value.trim();
  if (!EMAIL.test(email) || email.length > 255) {
    throw new ExitError(`${option} must be an e-mail address like name@example.com, got "${value}"`, EXIT.usage);
  }
  return email;
}

/** Checks a free text option's length after trimming; returns it trimmed. */
export function parseText(value: string, option: string, min: number, max: number): string {
  const text = value.trim();
  if (text.length < min || text.length > max) {
    throw new ExitError(`${option} must be ${min} to ${max} characters long, got ${text.length}`, EXIT.usage);
  }
  return text;
}

/** The user with this e-mail address, or a failure naming the option it came from. */
export async function requireUser(db: StoreDb, email: string, option: string): Promise<UserRow> {
  const user = await findUserByEmail(db, parseEmail(email, option));
  if (!user) throw new ExitError(`${option}: no user with e-mail ${email.trim()}`);
  return user;
}
