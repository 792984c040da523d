import type { FastifyRequest } from 'fastify';

/** The absolute base URL the caller reached us at, or the configured public URL. */
export function baseUrl(request: FastifyRequest): string {
  const configured = request.server.ctx.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

export const apiUrl = (base: string, path: string) => `${base}/v1${path}`;
export const appUrl = (base: string, path: string) => `${base}/app${path}`;
