import type { User } from '../../model/index.js';
import type { Request } from '../request.js';

/** `GET /v1/user`: the token's owner (also the cheapest check that a token works). */
export function userResource(request: Request) {
  return {
    get: () => request<User>({ method: 'GET', path: '/v1/user' }),
  };
}
