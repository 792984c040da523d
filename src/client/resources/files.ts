import type { RevisionFile } from '../../model/index.js';
import { paginate, type ListPage } from '../paginate.js';
import type { Request } from '../request.js';
import { scopePath, seg, type ContentScope } from './paths.js';

/** Files of a content scope and their bytes. */
export function filesResource(request: Request) {
  return {
    /** Every file of a scope (`GET .../files`, paged at 1000). */
    list: (scope: ContentScope) =>
      paginate((query) => request<ListPage<RevisionFile>>({ method: 'GET', path: `${scopePath(scope)}/files`, query: { ...query } })),
    get: (scope: ContentScope, fileId: string) =>
      request<RevisionFile>({ method: 'GET', path: `${scopePath(scope)}/files/${seg(fileId)}` }),
    /**
     * A file's bytes from its `downloadURL`: on our server an API URL (sent with the token), on the
     * hosted API a URL of another host (sent without it; the transport keeps the token to the API's origin).
     */
    download: (file: Pick<RevisionFile, 'downloadURL'> | string) =>
      request<Uint8Array>({ method: 'GET', path: typeof file === 'string' ? file : file.downloadURL, response: 'bytes' }),
  };
}
