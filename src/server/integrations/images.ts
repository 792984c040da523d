import { badRequest } from '../../model/index.js';

const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The image types an icon or preview may be, by their first bytes. */
const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
];

/** Decodes a base64 image of the publish body; `field` names it in the 400. */
export function decodeImage(base64: string, field: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badRequest(`${field} is empty`);
  if (bytes.length > MAX_IMAGE_BYTES) throw badRequest(`${field} is larger than ${MAX_IMAGE_BYTES} bytes`);
  if (!SIGNATURES.some(([, test]) => test(bytes))) throw badRequest(`${field} must be a PNG, JPEG, GIF or WebP image, base64-encoded`);
  return bytes;
}

export function imageType(bytes: Buffer): string {
  return SIGNATURES.find(([, test]) => test(bytes))?.[0] ?? 'application/octet-stream';
}
