// The only door to the service. One request goes through `apiRequest` (request.ts), which owns
// authentication, retries of transient faults, waits after 429 and the mapping of error answers
// to NodeApiError; before each attempt pacer.ts waits while the key's window is used up. Lists go
// through `iterateListPages` or `collectListPages` (listPages.ts).

export { accountOf, type ApiContext } from './connection';
export { apiRequest, type ApiRequestOptions, type ApiResponse } from './request';
export { collectListPages, iterateListPages, type ListReadOptions } from './listPages';
export type { ErrorContext, StatusWords } from './serviceError';
export { REQUEST_TIMEOUT_MS } from './send';
