import type { Client } from '../../client/index.js';
import type { OpenApiFiles } from '../../content/index.js';
import type { SpecResolver } from '../../preview/index.js';
import { readState } from '../../sync/index.js';
import { clientForWorkspace } from './sync-client.js';

/** How long an answer of the platform is reused before a visit asks again. */
const FRESH_MS = 30_000;

interface SpecItem {
  slug: string;
  sourceURL?: string;
}

/**
 * The specs of the organization a bound workspace's space belongs to, for `docsync preview`:
 * a block's slug, or the URL a spec is fetched from, gives that spec's latest version. Undefined
 * when the folder is no bound workspace or has no login; a spec the platform does not answer
 * for (unknown, unreachable, not processed) is none, and the block stays a placeholder.
 */
export async function platformSpecs(folder: string): Promise<{ resolve: SpecResolver; close(): Promise<void> } | undefined> {
  let client: Client;
  let spaceId: string;
  try {
    spaceId = (await readState(folder)).binding.spaceId;
    client = await clientForWorkspace(folder, { retries: 0 });
  } catch {
    return undefined;
  }
  let org: Promise<string> | undefined;
  const orgId = () => (org ??= client.spaces.get(spaceId).then((space) => space.organization));
  const cache = new Map<string, { at: number; files: Promise<OpenApiFiles | undefined> }>();
  const fetchSpec = async (ref: string): Promise<OpenApiFiles | undefined> => {
    const id = await orgId();
    let slug = ref;
    if (/^https?:\/\//i.test(ref)) {
      const list = await client.request<{ items: SpecItem[] }>({ method: 'GET', path: `/v1/orgs/${id}/openapi`, query: { limit: 1000 } });
      const found = list.items.filter((s) => s.sourceURL === ref).sort((a, b) => a.slug.localeCompare(b.slug))[0];
      if (!found) return undefined;
      slug = found.slug;
    }
    const content = await client.request<{ filesystem: OpenApiFiles }>({
      method: 'GET',
      path: `/v1/orgs/${id}/openapi/${encodeURIComponent(slug)}/versions/latest/content`,
    });
    return content.filesystem;
  };
  const resolve: SpecResolver = (ref) => {
    const kept = cache.get(ref);
    if (kept && Date.now() - kept.at < FRESH_MS) return kept.files;
    const files = fetchSpec(ref).catch(() => undefined);
    cache.set(ref, { at: Date.now(), files });
    return files;
  };
  return { resolve, close: () => client.close() };
}
