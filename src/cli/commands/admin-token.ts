import { createToken, findTokenByIdOrSecret, generateToken, listTokens, revokeToken } from '../../server/index.js';
import { ExitError, EXIT } from '../exit.js';
import { printResult, printRows } from '../output.js';
import { parseEmail, parseText, requireUser, withStore, type AdminOptions } from './admin-store.js';

export interface AdminTokenCreateOptions extends AdminOptions {
  email: string;
  label?: string;
}

/**
 * `docsync admin token create`: a new API token for a user. The secret is printed here once;
 * the store keeps only its hash, so it cannot be shown again.
 */
export async function adminTokenCreate(options: AdminTokenCreateOptions): Promise<void> {
  parseEmail(options.email, '--email');
  const label = options.label === undefined ? undefined : parseText(options.label, '--label', 1, 255);
  const secret = generateToken();
  const { id, user } = await withStore(options, async (db, now) => {
    const user = await requireUser(db, options.email, '--email');
    return { id: await createToken(db, { userId: user.id, token: secret, ...(label ? { label } : {}) }, now), user };
  });
  printResult(options, `created token ${id} for ${user.email}: ${secret}`, {
    id,
    userId: user.id,
    email: user.email,
    label: label ?? null,
    token: secret,
  });
}

/** `docsync admin token revoke`: the token stops working at once, for every server on the store. */
export async function adminTokenRevoke(idOrToken: string, options: AdminOptions): Promise<void> {
  // The command lets through unknown options so that an id starting with "-" works; a long
  // option is never an id, so it is the typo it looks like.
  if (idOrToken.startsWith('--')) throw new ExitError(`unknown option '${idOrToken}'`, EXIT.usage);
  const token = await withStore(options, async (db, now) => {
    const found = await findTokenByIdOrSecret(db, idOrToken);
    // Never echo the argument: it may be a secret.
    if (!found) throw new ExitError('TOKEN_OR_ID: no token with that id or secret');
    if (found.revokedAt !== null)
      throw new ExitError(`TOKEN_OR_ID: token ${found.id} of ${found.email} was already revoked at ${found.revokedAt}`);
    await revokeToken(db, found.id, now);
    return { ...found, revokedAt: now };
  });
  printResult(options, `revoked token ${token.id} of ${token.email}`, {
    id: token.id,
    userId: token.userId,
    email: token.email,
    label: token.label,
    revokedAt: token.revokedAt,
  });
}

export interface AdminTokenListOptions extends AdminOptions {
  email: string;
}

/** `docsync admin token list`: a user's tokens by id, label and dates; secrets are not stored. */
export async function adminTokenList(options: AdminTokenListOptions): Promise<void> {
  parseEmail(options.email, '--email');
  const { user, tokens } = await withStore(options, async (db) => {
    const user = await requireUser(db, options.email, '--email');
    return { user, tokens: await listTokens(db, user.id) };
  });
  printRows(
    options,
    tokens.map((row) => ({ id: row.id, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at })),
    (row) => [row.id, row.label ?? '-', `created ${row.createdAt}`, row.revokedAt ? `revoked ${row.revokedAt}` : 'active'].join('  '),
    `no tokens for ${user.email}`,
  );
}
