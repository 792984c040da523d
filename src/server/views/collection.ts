import type { Collection, Role } from '../../model/index.js';
import type { CollectionRow } from '../store/collections.js';
import { collectionPermissions } from '../auth/permissions.js';
import { apiUrl, appUrl } from '../urls.js';
import { defaultLevelView } from './space.js';

export function collectionView(row: CollectionRow, role: Role | null, base: string): Collection {
  return {
    object: 'collection',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    organization: row.org_id,
    ...(row.parent_id !== null ? { parent: row.parent_id } : {}),
    defaultLevel: defaultLevelView(row.default_level),
    urls: { location: apiUrl(base, `/collections/${row.id}`), app: appUrl(base, `/collections/${row.id}`) },
    permissions: collectionPermissions(role),
  };
}
