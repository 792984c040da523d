import type { FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from './csp.js';

/** Sends an HTML page with the headers every page of the server carries (a page sent often is best kept as its UTF-8 bytes: see published.ts). */
export function sendHtml(reply: FastifyReply, status: number, html: string | Buffer, cache = 'no-store'): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', cache)
    .send(html);
}
