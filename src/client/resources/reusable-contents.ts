import type { RevisionReusableContent } from '../../model/index.js';
import type { Request } from '../request.js';
import { scopePath, seg, type ContentScope } from './paths.js';

/** Reusable contents of a scope (the published `.../reusable-contents/{id}` reads). */
export function reusableContentsResource(request: Request) {
  return {
    /**
     * One reusable content (`GET .../reusable-contents/{id}`). With `markdown: true` it asks for
     * docsync's `format=markdown`, and the answer carries `markdown`, its body; a server without
     * that extension (the hosted API; see `capabilities.extensions`, `reusable-content-markdown`)
     * answers without it, and `document` is then only the id of the body.
     */
    get: (scope: ContentScope, id: string, options: { markdown?: boolean } = {}) =>
      request<RevisionReusableContent>({
        method: 'GET',
        path: `${scopePath(scope)}/reusable-contents/${seg(id)}`,
        query: { format: options.markdown ? 'markdown' : undefined },
      }),
  };
}
