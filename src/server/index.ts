import type { Kysely } from 'kysely';
import type { Database } from './store/schema.js';

/**
 * The server layer's public surface: what `cli` (`docsync serve`, `docsync admin`) may use. Other
 * layers reach the server only over HTTP.
 */
export { serve, type ServeOptions, type RunningServer } from './serve.js';
export { buildApp, DEFAULT_BODY_LIMIT, type AppOptions } from './app.js';
export { LOG_LEVELS, type LogLevel } from './log.js';
export { RATE_LIMIT_WINDOW_MS, type RateLimitOptions } from './rate-limit/index.js';
export { openDatabase, type Db, type Dialect, type StoreOptions } from './store/db.js';
export type { Database } from './store/schema.js';
export { createUser, findUserByEmail, createToken, listTokens, revokeToken, type UserRow } from './store/users.js';
export { findTokenByIdOrSecret, type TokenRecord } from './store/token-lookup.js';
export { createOrganization, findOrganization, findMember, upsertMember } from './store/organizations.js';
export { createLinkInvite } from './store/link-invites.js';
export { generateToken } from './auth/tokens.js';
export { systemClock, type Clock } from './util/clock.js';

/** An open store as the admin commands use it; spares them importing Kysely themselves. */
export type StoreDb = Kysely<Database>;
