import type { CreateSpace, Space } from '../../model/index.js';
import { paginate, type ListPage } from '../paginate.js';
import type { Request } from '../request.js';
import { seg } from './paths.js';

/** Spaces: listed and created per organization, read by id. */
export function spacesResource(request: Request) {
  return {
    /** Every space of an organization the caller can see (`GET /v1/orgs/{id}/spaces`, paged at `limit`, 1000 unless told). */
    list: (orgId: string, options: { limit?: number } = {}) =>
      paginate((query) => request<ListPage<Space>>({ method: 'GET', path: `/v1/orgs/${seg(orgId)}/spaces`, query: { ...query } }), options),
    /**
     * `POST /v1/orgs/{id}/spaces`. Pass `empty: true` for a space with no page, the start a push of
     * a local tree needs. Not retried after a reset (it would create a second space).
     */
    create: (orgId: string, body: CreateSpace = {}) => request<Space>({ method: 'POST', path: `/v1/orgs/${seg(orgId)}/spaces`, body }),
    get: (spaceId: string) => request<Space>({ method: 'GET', path: `/v1/spaces/${seg(spaceId)}` }),
  };
}
