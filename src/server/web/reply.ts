import type { FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from './csp.js';

/** Sends an HTML page with the headers every page of the server carries. */
export function sendHtml(reply: FastifyReply, status: number, html: string, cache = 'no-store'): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', cache)
    .send(html);
}
