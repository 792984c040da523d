import type { SamlProviderRow } from '../store/saml-providers.js';
import { apiUrl } from '../urls.js';

/** This server as the service provider of one SAML provider: where the identity provider talks to it. */
export function serviceUrls(provider: Pick<SamlProviderRow, 'id'>, base: string) {
  const root = apiUrl(base, `/sso/saml/${provider.id}`);
  return { acsURL: `${root}/acs`, startURL: `${root}/start`, entityID: `${root}/metadata` };
}

/** A provider signs people in once it knows where to send them and how to check the answer. */
export const isActive = (provider: SamlProviderRow) => provider.sso_url !== null && provider.certificate !== null;
