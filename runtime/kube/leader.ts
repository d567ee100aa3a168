// Leader election through a coordination.k8s.io/v1 Lease, so that of several replicas exactly one
// acts. Expiry is judged by this replica's own clock from the moment it last saw the Lease change
// (as client-go does), never by comparing clocks across machines. Writes use the Lease's
// resourceVersion, so two candidates can never both win.
import type { V1Lease } from '@kubernetes/client-node';
import type { Logger } from '../logger.js';
import { isConflict, isNotFound, type KubeApi } from './api.js';
import { apiPath } from './paths.js';

export interface LeaderOptions {
  namespace: string;
  name: string;
  identity: string;
  leaseDurationSeconds: number;
  renewDeadlineSeconds: number;
  retryPeriodSeconds: number;
  logger: Logger;
}

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

/** The JSON form of a Lease: MicroTime fields travel as strings. */
interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}
type Lease = Omit<V1Lease, 'spec'> & { spec?: LeaseSpec };

function microTime(date = new Date()): string {
  return date.toISOString().replace('Z', '000Z');
}

export class LeaderElector {
  private leading = false;
  private stopped = false;
  private observed = '';
  private observedAt = 0;
  private lastRenew = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly api: KubeApi,
    private readonly options: LeaderOptions,
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  private get path(): string {
    const { namespace, name } = this.options;
    return apiPath({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace, name });
  }

  start(callbacks: LeaderCallbacks): void {
    const tick = async (): Promise<void> => {
      await this.tryAcquireOrRenew(callbacks);
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.options.retryPeriodSeconds * 1000);
    };
    void tick();
  }

  /** Stops campaigning and, when leading, hands the Lease back so a standby takes over at once. */
  async release(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.leading) return;
    this.leading = false;
    try {
      const lease = await this.api.request<Lease>({ method: 'GET', path: this.path });
      if (lease.spec?.holderIdentity !== this.options.identity) return;
      const spec = { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime() };
      await this.api.request({ method: 'PUT', path: this.path, body: { ...lease, spec } });
      this.options.logger.info('released the leader lease', { lease: this.options.name });
    } catch (err) {
      this.options.logger.warn('could not release the leader lease; it will expire', { error: err });
    }
  }

  private async tryAcquireOrRenew(callbacks: LeaderCallbacks): Promise<void> {
    try {
      const won = await this.attempt();
      if (won) this.lastRenew = Date.now();
      if (won && !this.leading) {
        this.leading = true;
        this.options.logger.info('became leader', {
          lease: this.options.name,
          identity: this.options.identity,
        });
        callbacks.onStartedLeading();
      }
    } catch (err) {
      this.options.logger.warn('leader election attempt failed', { lease: this.options.name, error: err });
    }
    const overdue = Date.now() - this.lastRenew > this.options.renewDeadlineSeconds * 1000;
    if (this.leading && overdue) {
      this.leading = false;
      this.options.logger.error('lost the leader lease', { lease: this.options.name });
      callbacks.onStoppedLeading();
    }
  }

  /** One round: true when this replica holds the Lease afterwards. */
  private async attempt(): Promise<boolean> {
    let lease: Lease;
    try {
      lease = await this.api.request<Lease>({ method: 'GET', path: this.path });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return this.create();
    }
    const spec = lease.spec ?? {};
    this.observe(spec);
    const mine = spec.holderIdentity === this.options.identity;
    if (!mine && !this.expired(spec)) return false;
    const now = microTime();
    const next: LeaseSpec = mine
      ? { ...spec, renewTime: now, leaseDurationSeconds: this.options.leaseDurationSeconds }
      : {
          holderIdentity: this.options.identity,
          leaseDurationSeconds: this.options.leaseDurationSeconds,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: (spec.leaseTransitions ?? 0) + 1,
        };
    return this.write('PUT', { ...lease, spec: next });
  }

  private observe(spec: LeaseSpec): void {
    const record = `${spec.holderIdentity ?? ''}/${spec.renewTime ?? ''}`;
    if (record !== this.observed) {
      this.observed = record;
      this.observedAt = Date.now();
    }
  }

  private expired(spec: LeaseSpec): boolean {
    if (spec.holderIdentity === undefined || spec.holderIdentity === '') return true;
    const duration = (spec.leaseDurationSeconds ?? this.options.leaseDurationSeconds) * 1000;
    return Date.now() - this.observedAt > duration;
  }

  private create(): Promise<boolean> {
    const now = microTime();
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.options.name, namespace: this.options.namespace },
      spec: {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: this.options.leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      },
    };
    const collection = apiPath({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: this.options.namespace,
    });
    return this.write('POST', lease, collection);
  }

  private async write(method: 'PUT' | 'POST', lease: Lease, path = this.path): Promise<boolean> {
    try {
      await this.api.request({ method, path, body: lease });
      return true;
    } catch (err) {
      if (isConflict(err)) return false; // another candidate wrote first
      throw err;
    }
  }
}
