import { badRequest } from '../../model/index.js';
import { FetchError, type Fetched } from '../fetch/safe-fetch.js';
import type { FetchBudget } from '../fetch/budget.js';
import { IMPORT_LIMITS } from './limits.js';

/** A fetch for an import: refusals, timeouts and oversize answers are the caller's 400. */
export async function fetchForImport(budget: FetchBudget, url: string, maxBytes: number, allowPrivate: boolean): Promise<Fetched> {
  try {
    return await budget.fetch(url, { allowPrivate, maxBytes, timeoutMs: IMPORT_LIMITS.timeoutMs });
  } catch (error) {
    if (error instanceof FetchError) throw badRequest(`body.url: ${error.message}`);
    throw error;
  }
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
}

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i;
export const isHtml = (contentType: string | undefined) => contentType === undefined || HTML.test(contentType);
