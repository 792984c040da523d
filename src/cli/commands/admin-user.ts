import { createUser, findUserByEmail } from '../../server/index.js';
import { ExitError } from '../exit.js';
import { printResult } from '../output.js';
import { parseEmail, parseText, withStore, type AdminOptions } from './admin-store.js';

export interface AdminUserCreateOptions extends AdminOptions {
  email: string;
  name: string;
}

/** `docsync admin user create`: adds a user who can then be given tokens and memberships. */
export async function adminUserCreate(options: AdminUserCreateOptions): Promise<void> {
  const email = parseEmail(options.email, '--email');
  const name = parseText(options.name, '--name', 1, 255);
  const user = await withStore(options, async (db, now) => {
    // E-mail addresses are stored lower-cased, so this also catches a difference in case only.
    if (await findUserByEmail(db, email)) throw new ExitError(`--email: a user with e-mail ${email} already exists`);
    return createUser(db, { email, displayName: name }, now);
  });
  printResult(options, `created user ${user.id} ${user.email} "${user.display_name}"`, {
    id: user.id,
    email: user.email,
    name: user.display_name,
    createdAt: user.created_at,
  });
}
