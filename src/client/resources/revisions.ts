import type { Revision } from '../../model/index.js';
import type { Request } from '../request.js';
import { scopePath, type ContentScope } from './paths.js';

/** Revisions: the content at a scope as one object (pages, files, variables). */
export function revisionsResource(request: Request) {
  return {
    /** The revision at a scope: a space's live content, a change request's head, or a revision by id. */
    get: (scope: ContentScope) => request<Revision>({ method: 'GET', path: scopePath(scope) }),
  };
}
