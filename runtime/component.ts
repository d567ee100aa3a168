// The life of a landlord component, the same for operator, sync and purger: settings, logs, metrics and
// probes; the CRD check; warm caches on every replica; the work loop only on the Lease holder;
// and on SIGTERM, stop taking work, finish what is in flight, hand the Lease back, exit 0.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import type { SettingSpec } from './config.js';
import type { CrdDefinition } from '../api/crds.js';
import { ensureCrds } from './kube/crd-install.js';
import { apiServerStartupError, STARTUP_EXIT_CODE, StartupError } from './startup-error.js';
import { startHttpServer, type Readiness, type RunningHttpServer } from './http-server.js';
import { KubeApi } from './kube/api.js';
import { EventRecorder } from './kube/events.js';
import { LeaderElector } from './kube/leader.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { MemoryReturn } from './memory-return.js';

export const COMMON_SETTINGS = {
  logLevel: {
    env: 'LANDLORD_LOG_LEVEL',
    description: 'Log level.',
    default: 'info',
    schema: { type: 'string', enum: ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] },
  },
  namespace: {
    env: 'POD_NAMESPACE',
    description: "The component's own namespace: its Lease lives here, and tenants may not use it.",
    default: 'landlord-system',
    schema: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 },
  },
  httpPort: {
    env: 'LANDLORD_HTTP_PORT',
    description: 'Port for /metrics, /healthz and /readyz (0 picks a free port).',
    default: '8080',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
  },
  leaderElection: {
    env: 'LANDLORD_LEADER_ELECTION',
    description: 'Elect one active replica through a Lease; turn off only when running a single replica.',
    default: 'true',
    schema: { type: 'boolean' },
  },
  leaseDurationSeconds: {
    env: 'LANDLORD_LEASE_DURATION_SECONDS',
    description: 'How long a standby waits after the last renewal before taking over.',
    default: '15',
    schema: { type: 'integer', minimum: 2, maximum: 300 },
  },
  renewDeadlineSeconds: {
    env: 'LANDLORD_RENEW_DEADLINE_SECONDS',
    description: 'How long the leader keeps acting without a successful renewal before it steps down.',
    default: '10',
    schema: { type: 'integer', minimum: 1, maximum: 300 },
  },
  retryPeriodSeconds: {
    env: 'LANDLORD_RETRY_PERIOD_SECONDS',
    description: 'How often the Lease is renewed or tried.',
    default: '2',
    schema: { type: 'integer', minimum: 1, maximum: 60 },
  },
  installCrd: {
    env: 'LANDLORD_INSTALL_CRD',
    description: "Apply the component's CRDs at start-up (needs RBAC on customresourcedefinitions).",
    default: 'false',
    schema: { type: 'boolean' },
  },
  identity: {
    env: 'LANDLORD_IDENTITY',
    description: "This replica's name in the Lease; the pod name in a cluster.",
    default: hostname(),
    schema: { type: 'string', minLength: 1 },
  },
  memoryRequestBytes: {
    env: 'LANDLORD_MEMORY_REQUEST',
    description:
      "The container's memory request in bytes (downward API); near it, spare heap pages are handed back even while busy.",
    default: '0',
    schema: { type: 'integer', minimum: 0 },
  },
} as const satisfies Record<string, SettingSpec>;

export interface CommonSettings {
  logLevel: string;
  namespace: string;
  httpPort: number;
  leaderElection: boolean;
  leaseDurationSeconds: number;
  renewDeadlineSeconds: number;
  retryPeriodSeconds: number;
  installCrd: boolean;
  identity: string;
  memoryRequestBytes: number;
}

export interface ComponentContext {
  logger: Logger;
  metrics: Metrics;
  api: KubeApi;
  events: EventRecorder;
  settings: CommonSettings;
}

/** The running work loop of the leader. */
export interface Work {
  /** Stop taking new work and wait for what is in flight. */
  stop(): Promise<void>;
}

export interface Component {
  name: 'operator' | 'sync' | 'purger';
  /** The CRDs it reads: checked (or, with LANDLORD_INSTALL_CRD, applied) before anything else. */
  crds: readonly CrdDefinition[];
  /** On every replica, before leading: start caches. Resolves when they are synced. */
  prepare(ctx: ComponentContext): Promise<void>;
  /** On the leader only: start the work loop. */
  lead(ctx: ComponentContext): Promise<Work>;
  /** Release caches and connections, after the work has stopped. */
  close(): Promise<void>;
}

export function makeContext(name: string, settings: CommonSettings): ComponentContext {
  const logger = createLogger(name, settings.logLevel);
  const metrics = createMetrics(name);
  const kc = new KubeConfig();
  kc.loadFromDefault();
  const api = new KubeApi(kc, (verb, resource, code, seconds) => {
    metrics.apiRequestsTotal.inc({ verb, resource, code: String(code) });
    metrics.apiRequestDuration.observe({ verb, resource }, seconds);
  });
  const events = new EventRecorder(api, `landlord-${name}`, logger);
  return { logger, metrics, api, events, settings };
}

class Lifecycle {
  private work: Work | undefined;
  private leading = false;
  private prepared = false;
  private http: RunningHttpServer | undefined;
  private elector: LeaderElector | undefined;
  private stopping = false;
  private readonly memory: MemoryReturn;

  constructor(
    private readonly component: Component,
    private readonly ctx: ComponentContext,
  ) {
    const request = ctx.settings.memoryRequestBytes;
    this.memory = new MemoryReturn({
      logger: ctx.logger,
      requestBytes: request > 0 ? request : undefined,
      returns: ctx.metrics.memoryReturnsTotal,
    });
  }

  readiness(): Readiness {
    if (!this.prepared) return { ready: false, reason: 'caches are not synced yet' };
    if (this.leading && this.work === undefined) return { ready: false, reason: 'starting the work loop' };
    return { ready: true, reason: this.leading ? 'leader' : 'standby' };
  }

  async start(): Promise<void> {
    const { ctx } = this;
    this.http = await startHttpServer({
      port: ctx.settings.httpPort,
      registry: ctx.metrics.registry,
      readiness: () => this.readiness(),
      logger: ctx.logger,
    });
    ctx.logger.info('starting', { httpPort: this.http.port, identity: ctx.settings.identity });
    this.memory.start();
    // The first request to the API server: where a wrong kubeconfig or server shows first.
    await ensureCrds(ctx.api, this.component.crds, ctx.settings.installCrd, ctx.logger).catch(
      (err: unknown) => {
        throw apiServerStartupError(err, ctx.api.server);
      },
    );
    await this.component.prepare(ctx);
    this.prepared = true;
    if (!ctx.settings.leaderElection) {
      await this.startLeading();
      return;
    }
    this.elector = new LeaderElector(ctx.api, {
      namespace: ctx.settings.namespace,
      name: `landlord-${this.component.name}`,
      identity: ctx.settings.identity,
      leaseDurationSeconds: ctx.settings.leaseDurationSeconds,
      renewDeadlineSeconds: ctx.settings.renewDeadlineSeconds,
      retryPeriodSeconds: ctx.settings.retryPeriodSeconds,
      logger: ctx.logger,
    });
    this.elector.start({
      onStartedLeading: () => void this.startLeading(),
      // A replica that may no longer be the only one acting must stop at once; the pod restarts.
      onStoppedLeading: () => void this.shutdown(1),
    });
  }

  private async startLeading(): Promise<void> {
    this.leading = true;
    this.ctx.metrics.leader.set(1);
    this.work = await this.component.lead(this.ctx);
    this.ctx.logger.info('work loop running');
  }

  async shutdown(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const { logger } = this.ctx;
    logger.info('shutting down: finishing in-flight work', { exitCode: code });
    this.memory.stop();
    await this.work?.stop();
    await this.ctx.events.flush();
    await this.elector?.release();
    this.ctx.metrics.leader.set(0);
    await this.component.close();
    await this.http?.close();
    logger.info('stopped');
    logger.on('finish', () => process.exit(code));
    logger.end();
    setTimeout(() => process.exit(code), 2_000).unref();
  }
}

/** Runs a component until SIGTERM/SIGINT. */
export async function runComponent(component: Component, ctx: ComponentContext): Promise<void> {
  const lifecycle = new Lifecycle(component, ctx);
  process.once('SIGTERM', () => void lifecycle.shutdown(0));
  process.once('SIGINT', () => void lifecycle.shutdown(0));
  try {
    await lifecycle.start();
  } catch (err) {
    if (err instanceof StartupError) {
      // The message is the whole story (setting and fix): no stack trace to read past.
      ctx.logger.error(err.message);
      await lifecycle.shutdown(STARTUP_EXIT_CODE);
      return;
    }
    ctx.logger.error(err instanceof Error ? err.message : String(err), { error: err });
    await lifecycle.shutdown(1);
  }
}
