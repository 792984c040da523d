import { randomBytes } from 'node:crypto';

/** A random, URL-safe identifier (base64url alphabet, 120 bits). */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}
