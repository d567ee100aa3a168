// A problem that stops a component before it does any work: a port in use, an API server that
// cannot be reached, a missing CRD or table, refused credentials. Its message is the one line the
// person starting landlord reads: what is wrong, the setting that decides it, and the fix. The
// component exits 2 (the CLI's code for "you must change something"), not 1 (a crash).
import { ApiError } from './kube/api.js';

export class StartupError extends Error {
  override name = 'StartupError';
}

export const STARTUP_EXIT_CODE = 2;

/**
 * What a failed request says went wrong (ECONNREFUSED, a TLS error): undici's dispatcher puts the
 * code on the error itself, fetch on its cause; otherwise its message.
 */
function causeOf(err: unknown): string {
  const own = err instanceof Error ? (err as { code?: unknown }) : undefined;
  const cause =
    err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const code =
    typeof own?.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(own.code) ? own.code : undefined;
  const text = cause?.code ?? cause?.message ?? code ?? (err instanceof Error ? err.message : String(err));
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * The first request of a component went to the API server: a network failure or refused
 * credentials there is a start-up problem with its own line; anything else is left as it is.
 */
export function apiServerStartupError(err: unknown, server: string): unknown {
  if (err instanceof StartupError) return err;
  const where = `the Kubernetes API server at ${server}`;
  const fix = 'check KUBECONFIG, or the in-cluster ServiceAccount when running in a pod';
  if (!(err instanceof ApiError))
    return new StartupError(`${where} cannot be reached (${causeOf(err)}): ${fix}`);
  if (err.status === 401)
    return new StartupError(`${where} refused landlord's credentials (HTTP 401): ${fix}`);
  return err;
}
