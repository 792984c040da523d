import type { FastifyRequest } from 'fastify';
import { isActive } from '../sso/service-urls.js';
import { esc } from './html.js';

/**
 * Other ways to sign in, listed under the token form: each active SAML provider's start URL
 * (issue 20). The SAML assertion consumer signs the person in; to land in a web session it calls
 * `startWebSession` (session.ts) with the token it creates.
 */
export async function signInOptions(request: FastifyRequest, next: string): Promise<string> {
  const rows = await request.server.ctx.db.selectFrom('saml_providers').selectAll().orderBy('created_at').limit(50).execute();
  const active = rows.filter(isActive);
  if (active.length === 0) return '';
  const links = active.map(
    (p) => `<li><a href="/v1/sso/saml/${encodeURIComponent(p.id)}/start?redirect=${encodeURIComponent(next)}">${esc(p.label)}</a></li>`,
  );
  return `<h2>Single sign-on</h2><ul class="app-list">${links.join('')}</ul>`;
}
