import { EXTENSIONS_HEADER } from '../model/index.js';
import type { HeaderMap } from './retry.js';
import { requestUrl, type Send } from './transport.js';

/** The names in an `x-docsync-extensions` value (comma-separated; a repeated header counts whole). */
export function parseExtensions(value: string | string[]): string[] {
  return (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * Records in `extensions` what a docsync server says it accepts beyond the published API, from
 * every answer of the API's own origin (a download served by another host says nothing of the
 * API). An answer carrying the header replaces what was known, so a server upgraded while the
 * client runs is seen; one without it (the hosted API, a proxy's error page) leaves it as it was.
 */
export function withExtensions(send: Send, base: URL, extensions: Set<string>): Send {
  return async (request) => {
    const answer = await send(request);
    const value = (answer.headers as HeaderMap)[EXTENSIONS_HEADER];
    if (value !== undefined && requestUrl(base, request).origin === base.origin) {
      extensions.clear();
      for (const name of parseExtensions(value)) extensions.add(name);
    }
    return answer;
  };
}
