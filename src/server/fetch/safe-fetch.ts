import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BaseError } from '../../model/index.js';
import { addressProblem } from './address.js';

/** A fetch the server refused or could not complete; the message says which URL and why. */
export class FetchError extends BaseError<'fetch-failed'> {
  constructor(message: string) {
    super('fetch-failed', message);
  }
}

export interface SafeFetchOptions {
  /** Fetch loopback, private and reserved addresses too (tests, trusted networks). */
  allowPrivate: boolean;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** For the whole exchange, redirects and body included. @default 10000 */
  timeoutMs?: number;
  /** @default 5 */
  maxRedirects?: number;
}

export interface Fetched {
  /** The URL finally answered, after redirects. */
  url: string;
  contentType: string | undefined;
  bytes: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Refuses a URL whose host is, or resolves to, an address that is not public unicast. */
async function checkHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(`${url.href}: only http and https URLs can be fetched`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new FetchError(`${url.href}: host ${host} does not resolve`);
    }
  }
  for (const address of addresses) {
    const problem = addressProblem(address);
    if (problem) throw new FetchError(`${url.href}: refused, ${problem}`);
  }
}

async function readCapped(response: Response, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new FetchError(`${url}: larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > maxBytes) throw new FetchError(`${url}: larger than ${maxBytes} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}

/**
 * GETs a URL for the server (file uploads by URL, imports). Redirects are followed by hand so
 * every hop's host is checked before it is contacted. The check resolves names itself and fetch
 * resolves them again, so a DNS answer that changes between the two (rebinding) is not caught;
 * closing that needs a pinned connection, which node's global fetch does not offer.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<Fetched> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const maxRedirects = options.maxRedirects ?? 5;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchError(`${input}: not a valid URL`);
  }
  try {
    for (let hop = 0; ; hop += 1) {
      await checkHost(url, options.allowPrivate);
      const response = await fetch(url, { redirect: 'manual', signal, headers: { 'user-agent': 'docsync' } });
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw new FetchError(`${input}: more than ${maxRedirects} redirects`);
        url = new URL(location, url);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FetchError(`${url.href}: answered HTTP ${response.status}`);
      }
      const bytes = await readCapped(response, url.href, options.maxBytes);
      return { url: url.href, contentType: response.headers.get('content-type') ?? undefined, bytes };
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (signal.aborted) throw new FetchError(`${url.href}: no answer within ${options.timeoutMs ?? 10_000} ms`);
    throw new FetchError(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
