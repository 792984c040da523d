import { createOrganization } from '../../server/index.js';
import { printResult } from '../output.js';
import { parseEmail, parseText, requireUser, withStore, type AdminOptions } from './admin-store.js';

export interface AdminOrgCreateOptions extends AdminOptions {
  title: string;
  owner: string;
}

/** `docsync admin org create`: a new organization whose first member, an admin, is `--owner`. */
export async function adminOrgCreate(options: AdminOrgCreateOptions): Promise<void> {
  // The same bounds as the API's organization title.
  const title = parseText(options.title, '--title', 2, 255);
  parseEmail(options.owner, '--owner');
  const { org, owner } = await withStore(options, async (db, now) => {
    const owner = await requireUser(db, options.owner, '--owner');
    return { org: await createOrganization(db, { title, ownerId: owner.id }, now), owner };
  });
  printResult(options, `created organization ${org.id} "${org.title}" with ${owner.email} as admin`, {
    id: org.id,
    title: org.title,
    ownerId: owner.id,
    ownerEmail: owner.email,
    createdAt: org.created_at,
  });
}
