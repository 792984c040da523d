import type { Static } from '@sinclair/typebox';
import type { IntegrationInstallation, IntegrationSiteInstallation, IntegrationSpaceInstallation, Site, Space } from '../../model/index.js';
import type { InstallationRow } from '../store/integrations.js';
import type { TargetRow } from '../store/integration-targets.js';
import { apiUrl, appUrl } from '../urls.js';
import { integrationUrls } from './integration.js';

export const installationLocation = (base: string, row: Pick<InstallationRow, 'integration' | 'id'>) =>
  apiUrl(base, `/integrations/${row.integration}/installations/${row.id}`);

/** `spaces` and `sites` count what the installation reaches: its targets, or the organization's when `all`. */
export function installationView(
  row: InstallationRow,
  counts: { spaces: number; sites: number },
  base: string,
): Static<typeof IntegrationInstallation> {
  const script = integrationUrls(row.integration, base).script;
  return {
    object: 'integration-installation',
    id: row.id,
    integration: row.integration,
    status: 'active',
    space_selection: row.space_selection as 'all' | 'selected',
    site_selection: row.site_selection as 'all' | 'selected',
    spaces: counts.spaces,
    sites: counts.sites,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    target: { organization: row.org_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: installationLocation(base, row),
      app: appUrl(base, `/orgs/${row.org_id}/integrations/${row.integration}`),
      publicEndpoint: script,
      publicContentEndpoint: script,
    },
  };
}

function targetBase(installation: Pick<InstallationRow, 'integration' | 'id'>, row: TargetRow, base: string) {
  const script = integrationUrls(installation.integration, base).script;
  return {
    integration: installation.integration,
    installation: installation.id,
    status: 'active' as const,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    urls: {
      location: `${installationLocation(base, installation)}/${row.kind}s/${row.target_id}`,
      publicEndpoint: script,
      publicContentEndpoint: script,
    },
  };
}

/** `space` is the id, or the space itself when the caller asked `extended=true`. */
export function spaceInstallationView(
  installation: Pick<InstallationRow, 'integration' | 'id'>,
  row: TargetRow,
  space: Space | undefined,
  base: string,
): IntegrationSpaceInstallation {
  return { ...targetBase(installation, row, base), space: space ?? row.target_id };
}

export function siteInstallationView(
  installation: Pick<InstallationRow, 'integration' | 'id'>,
  row: TargetRow,
  site: Site | undefined,
  base: string,
): IntegrationSiteInstallation {
  return { ...targetBase(installation, row, base), site: site ?? row.target_id };
}
