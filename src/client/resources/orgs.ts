import type { Organization } from '../../model/index.js';
import { paginate, type ListPage } from '../paginate.js';
import type { Request } from '../request.js';

/** Organizations of the caller. */
export function orgsResource(request: Request) {
  return {
    /** Every organization the caller belongs to (`GET /v1/orgs`, paged at 1000). */
    list: () => paginate((query) => request<ListPage<Organization>>({ method: 'GET', path: '/v1/orgs', query: { ...query } })),
  };
}
