import { randomBytes } from 'node:crypto';

/**
 * A random, URL-safe identifier (base64url alphabet, 120 bits) that starts with a letter or a
 * digit: ids are passed to the CLI as arguments (`docsync clone <space-id>`, `--org <id>`), where
 * one starting with `-` would be read as an option (1 in 32 did).
 */
export function newId(): string {
  for (;;) {
    const id = randomBytes(15).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}
