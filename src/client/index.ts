export { createClient, type Client, type ClientOptions, type ClientStats } from './client.js';
export {
  ApiError,
  CLIENT_ERROR_CODES,
  ClientError,
  ConnectionError,
  isApiError,
  redact,
  type ApiErrorDetails,
  type ClientErrorCode,
} from './errors.js';
export { DEFAULT_RETRY_POLICY, retryDelay, serverDelay, type AttemptOutcome, type RetryPolicy } from './retry.js';
export { DEFAULT_CONCURRENCY } from './queue.js';
export { paginate, collect, type ListPage, type PageQuery } from './paginate.js';
export { planBatches, base64Size, DEFAULT_BATCH_LIMITS, type BatchLimits, type BatchPlan } from './batch.js';
export { refDefinitions, refUses, rewriteRefs, type RefKind } from './batch-refs.js';
export { createdRefs, type ContentWriteResult } from './resources/content-write.js';
export { type MergeOutcome } from './resources/change-requests.js';
export { type Capabilities } from './resources/pages.js';
export { type ContentScope } from './resources/paths.js';
export type { ApiRequest } from './transport.js';
export type { Request, RetryTiming } from './request.js';
export { type CommentPlace, type CommentListOptions } from './resources/comments.js';
export { type EventStreamOptions } from './event-stream.js';
