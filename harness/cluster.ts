// A real, local Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kwok with one fake node) and moto, on loopback ports of its own, torn down
// completely by stop(). This module is the order of start-up and the faults tests inject; the
// components' command lines are in components.ts, their kubeconfigs in component-kubeconfigs.ts,
// and starting, watching and stopping their processes in process-group.ts.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinaries, type BinaryPaths } from './binaries.js';
import { writeComponentKubeconfigs } from './component-kubeconfigs.js';
import {
  apiServerArgs,
  controllerManagerArgs,
  etcdArgs,
  kwokArgs,
  schedulerArgs,
  type Ports,
} from './components.js';
import { writeCredentials, type Credentials } from './credentials.js';
import { DatabaseServers, type DatabaseEnv } from './database-servers.js';
import { ensureMoto } from './moto.js';
import { freePort } from './ports.js';
import { assertRunning, ProcessGroup } from './process-group.js';
import { apiServerReady, createKwokNode, httpOk, probeWorkload } from './readiness.js';
import { installTenantCrd } from './tenant-crd.js';
import { waitUntil } from './wait.js';

export interface ClusterEnv extends Partial<DatabaseEnv> {
  KUBECONFIG: string;
  LANDLORD_E2E_API_SERVER: string;
  LANDLORD_E2E_CA_FILE: string;
  LANDLORD_E2E_RUN_DIR: string;
  DYNAMODB_ENDPOINT: string;
  AWS_REGION: string;
  AWS_ACCESS_KEY_ID: string;
  AWS_SECRET_ACCESS_KEY: string;
}

export interface ClusterOptions {
  /** moto for tests (it has Streams); none when the caller brings its own DynamoDB. */
  dynamodb: 'moto' | 'none';
  log?: (line: string) => void;
  /**
   * Installed before kube-controller-manager starts: its garbage collector discovers resources
   * only every 30 s, and until it knows a kind it does not collect that kind's dependents.
   */
  installTenantCrd?: boolean;
  /** PostgreSQL and MariaDB on loopback (database-servers.ts), their endpoints in env. */
  databases?: boolean;
}

interface ClusterParts {
  runDir: string;
  ports: Ports;
  binaries: BinaryPaths;
  creds: Credentials;
  motoServer: string | undefined;
}

type Component = 'etcd' | 'apiserver' | 'controller-manager' | 'scheduler' | 'kwok' | 'moto';

export class Cluster {
  private readonly processes: ProcessGroup<Component>;

  readonly runDir: string;
  private readonly ports: Ports;
  private readonly binaries: BinaryPaths;
  private readonly creds: Credentials;
  private readonly motoServer: string | undefined;
  private readonly installCrd: boolean;
  private readonly databases: DatabaseServers | undefined;

  private constructor(parts: ClusterParts, options: ClusterOptions) {
    ({ runDir: this.runDir, ports: this.ports, binaries: this.binaries, creds: this.creds } = parts);
    this.motoServer = parts.motoServer;
    const log = options.log ?? ((line: string) => console.error(line));
    this.processes = new ProcessGroup(join(this.runDir, 'logs'), log);
    this.installCrd = options.installTenantCrd ?? false;
    this.databases =
      options.databases === true ? new DatabaseServers(join(this.runDir, 'logs'), log) : undefined;
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const log = options.log ?? ((line: string) => console.error(line));
    const [binaries, motoServer] = await Promise.all([
      ensureBinaries(log),
      options.dynamodb === 'moto' ? ensureMoto(log) : Promise.resolve(undefined),
    ]);
    const runDir = await mkdtemp(join(tmpdir(), 'landlord-e2e-'));
    const ports: Ports = {
      etcdClient: await freePort(),
      etcdPeer: await freePort(),
      apiServer: await freePort(),
      dynamodb: await freePort(),
    };
    const creds = await writeCredentials(runDir);
    const cluster = new Cluster({ runDir, ports, binaries, creds, motoServer }, options);
    try {
      await cluster.boot();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  get env(): ClusterEnv {
    return {
      KUBECONFIG: this.adminKubeconfig,
      LANDLORD_E2E_API_SERVER: this.apiServerUrl,
      LANDLORD_E2E_CA_FILE: this.caFile,
      LANDLORD_E2E_RUN_DIR: this.runDir,
      DYNAMODB_ENDPOINT: this.motoServer === undefined ? '' : `http://127.0.0.1:${this.ports.dynamodb}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'landlord-e2e',
      AWS_SECRET_ACCESS_KEY: 'landlord-e2e',
      ...this.databases?.endpoints,
    };
  }

  get apiServerUrl(): string {
    return `https://127.0.0.1:${this.ports.apiServer}`;
  }

  /** kube-apiserver writes a self-signed serving cert with its CA appended; trusting the bundle trusts the CA. */
  get caFile(): string {
    return join(this.runDir, 'apiserver-certs', 'apiserver.crt');
  }

  get adminKubeconfig(): string {
    return join(this.runDir, 'admin.kubeconfig');
  }

  get adminToken(): string {
    return this.creds.admin.token;
  }

  private async boot(): Promise<void> {
    const logDir = join(this.runDir, 'logs');
    await mkdir(logDir, { recursive: true });
    await Promise.all([this.startEtcd(), this.startMoto(), this.databases?.start()]);
    await this.startApiServer();
    const server = { server: this.apiServerUrl, caFile: this.caFile };
    await writeComponentKubeconfigs(this.runDir, server, this.creds);
    if (this.installCrd) await installTenantCrd(this.adminKubeconfig);
    await Promise.all([this.startControllerManager(), this.startScheduler(), this.startKwok()]);
    await createKwokNode(this.adminKubeconfig);
    await probeWorkload(this.adminKubeconfig, {
      timeoutMs: 60_000,
      abortIf: () => this.processes.assertAllRunning(),
    });
  }

  private async startEtcd(): Promise<void> {
    const args = etcdArgs(join(this.runDir, 'etcd'), this.ports);
    const proc = this.processes.spawn('etcd', this.binaries.etcd, args);
    await waitUntil('etcd', () => httpOk(`http://127.0.0.1:${this.ports.etcdClient}/health`), {
      timeoutMs: 30_000,
      abortIf: () => assertRunning(proc),
    });
  }

  private async startMoto(): Promise<void> {
    if (this.motoServer === undefined) return;
    const args = ['-H', '127.0.0.1', '-p', String(this.ports.dynamodb)];
    const proc = this.processes.spawn('moto', this.motoServer, args);
    await waitUntil('moto', () => httpOk(`http://127.0.0.1:${this.ports.dynamodb}/moto-api/`), {
      timeoutMs: 60_000,
      abortIf: () => assertRunning(proc),
    });
  }

  private async startApiServer(): Promise<void> {
    const args = apiServerArgs(this.runDir, this.ports, this.creds);
    const proc = this.processes.spawn('apiserver', this.binaries['kube-apiserver'], args);
    await waitUntil(
      'kube-apiserver /readyz',
      () => apiServerReady(this.apiServerUrl, this.caFile, this.adminToken),
      {
        timeoutMs: 60_000,
        abortIf: () => assertRunning(proc),
      },
    );
  }

  private async startControllerManager(): Promise<void> {
    const kubeconfig = join(this.runDir, 'controller-manager.kubeconfig');
    const args = controllerManagerArgs(kubeconfig, this.caFile, this.creds);
    this.processes.spawn('controller-manager', this.binaries['kube-controller-manager'], args);
    return Promise.resolve();
  }

  private async startScheduler(): Promise<void> {
    const args = await schedulerArgs(this.runDir, join(this.runDir, 'scheduler.kubeconfig'));
    this.processes.spawn('scheduler', this.binaries['kube-scheduler'], args);
  }

  private async startKwok(): Promise<void> {
    this.processes.spawn(
      'kwok',
      this.binaries.kwok,
      kwokArgs(join(this.runDir, 'kwok.kubeconfig'), this.binaries.kwokStages),
    );
    return Promise.resolve();
  }

  /** Stops kube-apiserver and starts it again on the same port, data and certificates. */
  async restartApiServer(downMs = 0): Promise<void> {
    await this.processes.stop('apiserver');
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.startApiServer();
  }

  /** Freezes etcd (SIGSTOP): the API server stays up but cannot read or write. */
  pauseEtcd(): void {
    this.processes.signal('etcd', 'SIGSTOP');
  }

  resumeEtcd(): void {
    this.processes.signal('etcd', 'SIGCONT');
  }

  /** Stops moto; its in-memory tables are lost, so callers that need data back use pauseDynamo. */
  async stopDynamo(): Promise<void> {
    await this.processes.stop('moto');
  }

  async startDynamo(): Promise<void> {
    await this.startMoto();
  }

  /** Freezes moto (SIGSTOP): requests hang, as with a network partition, and nothing is lost. */
  pauseDynamo(): void {
    this.processes.signal('moto', 'SIGSTOP');
  }

  resumeDynamo(): void {
    this.processes.signal('moto', 'SIGCONT');
  }

  async stop(): Promise<void> {
    this.processes.markStopping();
    // A stopped process would ignore SIGTERM; wake it first.
    this.resumeEtcd();
    this.resumeDynamo();
    await this.processes.stopAll(['kwok', 'scheduler', 'controller-manager', 'apiserver', 'moto', 'etcd']);
    await this.databases?.stop();
    if (process.env.LANDLORD_E2E_KEEP !== '1') await rm(this.runDir, { recursive: true, force: true });
  }
}
