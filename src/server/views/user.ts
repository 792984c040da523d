import type { User } from '../../model/index.js';
import type { UserRow } from '../store/users.js';
import { apiUrl } from '../urls.js';

export function userView(row: UserRow, base: string): User {
  return {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    ...(row.photo_url ? { photoURL: row.photo_url } : {}),
    urls: { location: apiUrl(base, `/users/${row.id}`) },
  };
}
