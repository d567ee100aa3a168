// One landlord run on one fresh cluster: the table and its rows, the sync and operator processes
// (restarted and swapped as the scenarios need), the watch on Tenants, and the memory each
// process reached before it was stopped. With --dynamo-calls (the fullfeature scenario), sync
// reaches moto through a proxy that counts its calls.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { V1Deployment } from '@kubernetes/client-node';
import type { Informer } from '../../runtime/kube/informer.js';
import type { Tenant } from '../../api/tenant.js';
import type { BenchCluster } from '../cluster.js';
import { ComponentProcess, type ComponentName, type HeapReport, type SpawnOptions } from '../component.js';
import { createTenantTable } from '../../harness/tenant-table.js';
import { dynamoClient, putRows } from '../dynamo.js';
import { watchDeployments, watchTenants } from '../kube.js';
import type { MemoryReport } from '../measure/rss.js';
import { sumOf } from '../../harness/prom-text.js';
import { benchReplicas, tenantName } from '../rows.js';
import type { RunContext } from '../run-context.js';
import { bindSourcesOnCreate, createSources, secretsEnv } from '../secrets.js';
import { benchClass, installClass, OPERATOR_NAMESPACE, tenancyEnv, type Tenancy } from '../tenancy.js';
import type { Sizing } from '../deployed.js';
import { createAdminSecret } from '../databases.js';
import { DynamoCallCounter } from '../dynamo-calls.js';
import { landlordEnv, rowStatusEnv } from './landlord-env.js';

export const TABLE = 'landlord-bench';

export class Session {
  readonly dynamo: DynamoDBClient;
  readonly names: string[];
  tenants: Informer<Tenant> | undefined;
  deployments: Informer<V1Deployment> | undefined;
  sync: ComponentProcess | undefined;
  operator: ComponentProcess | undefined;
  /** Memory of every process stopped so far, by its label. */
  readonly memory: Record<string, MemoryReport & HeapReport> = {};
  /** sync's DynamoDB calls, when the run counts them (started in seed, before sync). */
  dynamoCalls: DynamoCallCounter | undefined;

  constructor(
    readonly bench: BenchCluster,
    readonly n: number,
    readonly ctx: RunContext,
    readonly tenancy: Tenancy = 'shared',
  ) {
    this.dynamo = dynamoClient(bench.cluster.env);
    this.names = Array.from({ length: n }, (_, i) => tenantName(i));
  }

  /** How the manifests size the operator for this run's tenants (bench/deployed.ts). */
  private get sizing(): Sizing {
    const { expose, secrets, databases, services } = this.ctx.options;
    const featured = expose || secrets || databases || services > 1;
    return this.tenancy === 'pertenant' && featured ? 'featured' : this.tenancy;
  }

  /** Whether this run's class copies Secrets: PerTenant with --secrets. */
  get secrets(): boolean {
    return this.tenancy === 'pertenant' && this.ctx.options.secrets;
  }

  /**
   * The table and its N rows (and, PerTenant, the default class; with --secrets, the Secrets it
   * copies), before any landlord process starts; not timed.
   */
  async seed(): Promise<void> {
    if (this.secrets) await createSources(this.bench.api, this.names, this.ctx.concurrency);
    const databases = this.bench.databases;
    if (databases !== undefined) await createAdminSecret(this.bench.api, databases.admin, OPERATOR_NAMESPACE);
    if (this.ctx.options.dynamoCalls)
      this.dynamoCalls = await DynamoCallCounter.start(this.bench.cluster.env.DYNAMODB_ENDPOINT);
    if (this.tenancy === 'pertenant') await installClass(this.bench.api, benchClass(this.ctx.options));
    await createTenantTable(this.dynamo, TABLE);
    await putRows(this.dynamo, TABLE, this.names, {
      replicas: benchReplicas(this.ctx.options),
      services: this.ctx.options.services,
    });
    this.tenants = await watchTenants(this.bench.api);
    if (this.secrets) bindSourcesOnCreate(this.bench.api, this.tenants);
  }

  async watchDeployments(): Promise<Informer<V1Deployment>> {
    this.deployments ??= await watchDeployments(this.bench.api, this.tenancy === 'pertenant');
    return this.deployments;
  }

  /** Runs that share the results directory name their logs apart: PerTenant, and its full-feature side. */
  logPrefix(): string {
    if (this.tenancy !== 'pertenant') return '';
    return this.ctx.options.rowStatus ? 'full-' : 'pertenant-';
  }

  private spawn(
    name: ComponentName,
    label: string,
    extra: Record<string, string>,
    process: Pick<SpawnOptions, 'heapSnapshotDir'> = {},
  ): ComponentProcess {
    return new ComponentProcess({
      ...process,
      name,
      // A PerTenant run shares the results directory with the Shared one: its logs are named apart.
      label: `${this.logPrefix()}${label}-${this.n}`,
      env: landlordEnv(this.bench, TABLE, this.ctx, {
        ...tenancyEnv(this.tenancy),
        ...secretsEnv(this.secrets),
        ...rowStatusEnv(this.ctx.options),
        ...(this.dynamoCalls === undefined ? {} : { DYNAMODB_ENDPOINT: this.dynamoCalls.url }),
        ...extra,
      }),
      logDir: this.ctx.runDir,
      tenants: this.n,
      sizing: this.sizing,
      nodeFlags: this.ctx.options.nodeFlags,
      ...(this.ctx.options.profile ? { profileDir: this.ctx.runDir } : {}),
    });
  }

  startSync(label: string, extra: Record<string, string> = {}): ComponentProcess {
    this.sync = this.spawn('sync', label, extra);
    return this.sync;
  }

  startOperator(
    label: string,
    extra: Record<string, string> = {},
    process: Pick<SpawnOptions, 'heapSnapshotDir'> = {},
  ): ComponentProcess {
    this.operator = this.spawn('operator', label, extra, process);
    return this.operator;
  }

  async stopSync(label: string): Promise<void> {
    if (this.sync !== undefined) this.memory[label] = await this.sync.stop();
    this.sync = undefined;
  }

  async stopOperator(label: string): Promise<void> {
    if (this.operator !== undefined) this.memory[label] = await this.operator.stop();
    this.operator = undefined;
  }

  /** Throws when sync or the operator died while a measurement depended on it. */
  assertRunning(): void {
    const failure = this.sync?.failure ?? this.operator?.failure;
    if (failure !== undefined) throw new Error(failure);
  }

  /** Completed full scans of the running sync, from its metrics. */
  async syncScans(): Promise<number> {
    return sumOf(await this.sync!.metrics(), 'landlord_sync_scans_total', { result: 'success' });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.stopSync('sync-at-close'), this.stopOperator('operator-at-close')]);
    await this.tenants?.stop();
    await this.deployments?.stop();
    await this.dynamoCalls?.close();
    this.dynamo.destroy();
  }
}
