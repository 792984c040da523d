import type { Integration } from '../../model/index.js';
import type { IntegrationRow } from '../store/integrations.js';
import type { MemberRow, OrganizationRow } from '../store/organizations.js';
import { apiUrl, appUrl } from '../urls.js';
import { organizationView } from './organization.js';

/** The fields of a publish body kept as JSON in `integrations.definition`. */
export interface IntegrationDefinition {
  runtime: 'v1' | 'v2';
  description: string;
  summary?: string;
  scopes: string[];
  categories: string[];
  blocks: { urlUnfurl?: string[] }[];
  contentSources: unknown[];
  configurations: Record<string, unknown>;
  externalLinks: unknown[];
  contentSecurityPolicy?: string;
}

export const definitionOf = (row: IntegrationRow) => JSON.parse(row.definition) as IntegrationDefinition;

export function integrationUrls(name: string, base: string) {
  const location = apiUrl(base, `/integrations/${name}`);
  return { location, assets: `${location}/assets`, script: `${location}/script`, app: appUrl(base, `/integrations/${name}`) };
}

export function integrationView(
  row: IntegrationRow,
  owner: OrganizationRow,
  caller: { ownerMember: MemberRow | undefined; canInstall: boolean },
  base: string,
): Integration {
  const d = definitionOf(row);
  const urls = integrationUrls(row.name, base);
  const images = JSON.parse(row.preview_images) as string[];
  return {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: d.description,
    ...(d.summary !== undefined ? { summary: d.summary } : {}),
    previewImages: images.map((_, i) => `${urls.assets}/preview-${i}`),
    target: row.target as Integration['target'],
    verified: false,
    visibility: row.visibility as Integration['visibility'],
    scopes: d.scopes,
    categories: d.categories,
    blocks: d.blocks,
    contentSources: d.contentSources,
    configurations: d.configurations,
    externalLinks: d.externalLinks,
    owner: organizationView(owner, caller.ownerMember, base),
    urls: {
      location: urls.location,
      ...(row.icon !== null ? { icon: `${urls.assets}/icon` } : {}),
      app: urls.app,
      assets: urls.assets,
      publicEndpoint: urls.script,
      publicContentEndpoint: urls.script,
    },
    permissions: { admin: caller.ownerMember?.role === 'admin' && caller.ownerMember.disabled === 0, install: caller.canInstall },
    ...(d.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: d.contentSecurityPolicy } : {}),
  };
}
