import { MAX_BASE64_BYTES, badRequest, fileNameProblem, type ContentChange } from '../../model/index.js';
import type { PreparedFile } from '../../content/index.js';
import { sha256 } from '../store/blobs.js';
import { FetchError } from '../fetch/safe-fetch.js';
import { FetchBudget } from '../fetch/budget.js';

/** Largest file fetched for an `insert_files` item with `url`. */
export const MAX_URL_FILE_BYTES = 10 * 1024 * 1024;

export interface UploadedFile extends PreparedFile {
  bytes: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** The MIME type without parameters (`text/plain; charset=utf-8` is `text/plain`). */
const mimeOf = (value: string | undefined) => value?.split(';')[0]?.trim().toLowerCase() || undefined;

/**
 * Checks every `insert_files` item's shape (a safe name, see `fileNameProblem`; exactly one source; `contentType` with `base64`;
 * at most 1 MB decoded), naming the change and item, before anything is fetched or applied.
 */
export function checkFileItems(changes: readonly ContentChange[]): void {
  changes.forEach((change, i) => {
    if (change.operation !== 'insert_files') return;
    change.files.forEach((item, j) => {
      const where = `changes[${i}].files[${j}]`;
      const nameProblem = fileNameProblem(item.name);
      if (nameProblem) throw badRequest(`${where}.name ${nameProblem}: ${JSON.stringify(item.name)}`);
      if ((item.url === undefined) === (item.base64 === undefined))
        throw badRequest(`${where} must have exactly one of \`url\` or \`base64\``);
      if (item.base64 === undefined) return;
      if (item.contentType === undefined) throw badRequest(`${where}.contentType is required with \`base64\``);
      const compact = item.base64.replace(/\s+/g, '');
      if (!BASE64.test(compact) && !BASE64URL.test(compact)) throw badRequest(`${where}.base64 is not valid base64`);
      // Decoded size from the length, so an oversized upload is refused before it is decoded.
      const size = Math.floor((compact.length * 3) / 4) - (compact.match(/=+$/)?.[0].length ?? 0);
      if (size > MAX_BASE64_BYTES) throw badRequest(`${where}.base64 is larger than 1 MB (${size} bytes decoded)`);
    });
  });
}

/**
 * The bytes of every `insert_files` item, keyed `<change>/<item>` as the content layer expects:
 * decoded from base64 or fetched through safeFetch. Nothing is stored here; the writer stores
 * the bytes with the revision, so a rejected batch leaves nothing behind.
 */
export async function loadFiles(changes: readonly ContentChange[], allowPrivateFetch: boolean): Promise<Map<string, UploadedFile>> {
  const files = new Map<string, UploadedFile>();
  // One allowance for the whole batch: count, bytes and time of all its fetches together.
  const budget = new FetchBudget();
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [j, item] of change.files.entries()) {
      let bytes: Buffer;
      let contentType = mimeOf(item.contentType);
      if (item.base64 !== undefined) {
        bytes = Buffer.from(
          item.base64.replace(/\s+/g, ''),
          item.base64.includes('-') || item.base64.includes('_') ? 'base64url' : 'base64',
        );
      } else {
        try {
          const fetched = await budget.fetch(item.url!, { allowPrivate: allowPrivateFetch, maxBytes: MAX_URL_FILE_BYTES });
          bytes = fetched.bytes;
          contentType ??= mimeOf(fetched.contentType);
        } catch (error) {
          if (error instanceof FetchError) throw badRequest(`changes[${i}].files[${j}].url: ${error.message}`);
          throw error;
        }
      }
      files.set(`${i}/${j}`, { bytes, blob: sha256(bytes), size: bytes.length, contentType: contentType ?? 'application/octet-stream' });
    }
  }
  return files;
}
