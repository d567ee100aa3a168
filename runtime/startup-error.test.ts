import { describe, expect, it } from 'vitest';
import { ApiError } from './kube/api.js';
import { apiServerStartupError, StartupError } from './startup-error.js';

const SERVER = 'https://127.0.0.1:6443';
const FIX = 'check KUBECONFIG, or the in-cluster ServiceAccount when running in a pod';

/** undici's fetch failure: the reason is in its cause. */
function fetchFailed(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

/** undici's dispatcher failure: the code is on the error itself. */
function connectFailed(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:6443`), { code });
}

describe('apiServerStartupError', () => {
  it.each([
    ['refused connection (dispatcher)', connectFailed('ECONNREFUSED'), 'cannot be reached (ECONNREFUSED)'],
    ['refused connection', fetchFailed('ECONNREFUSED'), 'cannot be reached (ECONNREFUSED)'],
    ['unknown host', fetchFailed('ENOTFOUND'), 'cannot be reached (ENOTFOUND)'],
    [
      'timeout without a cause',
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      'cannot be reached (The operation was aborted due to timeout)',
    ],
    [
      'refused credentials',
      new ApiError(401, 'Unauthorized', 'Unauthorized', '/apis'),
      "refused landlord's credentials (HTTP 401)",
    ],
  ])('turns a %s into one line naming the server and the fix', (_case, error, what) => {
    const result = apiServerStartupError(error, SERVER);
    expect(result).toBeInstanceOf(StartupError);
    expect((result as Error).message).toBe(`the Kubernetes API server at ${SERVER} ${what}: ${FIX}`);
  });

  it.each([
    ['a 403 (RBAC: a message of its own follows)', new ApiError(403, 'Forbidden', 'forbidden', '/apis')],
    ['a 500', new ApiError(500, 'InternalError', 'boom', '/apis')],
  ])('leaves %s as it is', (_case, error) => {
    expect(apiServerStartupError(error, SERVER)).toBe(error);
  });

  it('keeps a start-up error that already says what to do', () => {
    const missing = new StartupError('the CustomResourceDefinition is not installed');
    expect(apiServerStartupError(missing, SERVER)).toBe(missing);
  });
});
