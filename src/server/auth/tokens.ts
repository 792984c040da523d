import { createHash, randomBytes } from 'node:crypto';

/** Tokens are 256 random bits, so one unsalted SHA-256 is enough to store them safely. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(): string {
  return `ds_${randomBytes(32).toString('base64url')}`;
}

/** Reads `Authorization: Bearer <token>`; undefined when the header is missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
