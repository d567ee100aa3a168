// Watching, built on @dot-i/k8s-operator's Operator. The library gives the shape (init registers
// watches, events arrive as ResourceEvents, start/stop); its own watchResource is replaced,
// because as shipped it (1) lists without a resourceVersion, so every restart replays every
// object as ADDED, (2) takes no label selector, so it would hold every Deployment and ConfigMap of
// the cluster, and (3) calls process.exit(1) on any watch error, so an API-server restart kills
// the operator. The replacement is an Informer (client-node's ListWatch, see runtime/kube/informer.ts)
// per resource: resumes from its resourceVersion, relists on 410 Gone, retries errors with
// backoff, and keeps a cache. Handlers only update indexes and enqueue a key, so the library's
// one-at-a-time event delivery never waits on the API. See docs/adr/0001-watching.md.
import operatorModule, { ResourceEventType, ResourceMetaImpl, type ResourceEvent } from '@dot-i/k8s-operator';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { KubeApi } from '../runtime/kube/api.js';
import { Informer, type Change } from '../runtime/kube/informer.js';
import { apiPath, pluralOf } from '../runtime/kube/paths.js';
import type { Logger } from '../runtime/logger.js';

/** A watch event, and whether it changed only the object's status. */
export type WatchEvent = ResourceEvent & Change;

export interface WatchSpec {
  apiVersion: string;
  kind: string;
  labelSelector?: string;
  /** Watch one namespace; all namespaces when absent. */
  namespace?: string;
  onEvent: (event: WatchEvent) => void;
  /** The watch reconnected after an error. */
  onRecovered?: () => void;
  /** Cache the objects without their status (InformerOptions.dropStatus). */
  dropStatus?: boolean;
  /** Say in each event whether it changed only the status (InformerOptions.markStatusOnly). */
  markStatusOnly?: boolean;
}

// The library is CommonJS with an `exports.default` class; from ESM its default import is the module object.
const Operator = operatorModule.default;

/** The library registers watches by group, version and plural; landlord names kinds by apiVersion. */
function librarySpelling(spec: WatchSpec): { group: string; version: string; plural: string } {
  const slash = spec.apiVersion.lastIndexOf('/');
  return {
    group: spec.apiVersion.slice(0, Math.max(slash, 0)),
    version: spec.apiVersion.slice(slash + 1),
    plural: pluralOf(spec.apiVersion, spec.kind),
  };
}

export class InformerOperator extends Operator {
  private readonly informers: Informer<KubernetesObject>[] = [];
  private readonly byWatch = new Map<string, Informer<KubernetesObject>>();

  constructor(
    private readonly api: KubeApi,
    private readonly specs: readonly WatchSpec[],
    private readonly log: Logger,
  ) {
    super({
      debug: (m: string) => log.debug(m),
      info: (m: string) => log.info(m),
      warn: (m: string) => log.warn(m),
      error: (m: string) => log.error(m),
    });
  }

  protected async init(): Promise<void> {
    for (const spec of this.specs) {
      const onEvent = (e: WatchEvent): Promise<void> => Promise.resolve(spec.onEvent(e));
      const { group, version, plural } = librarySpelling(spec);
      await this.watchResource(group, version, plural, onEvent, spec.namespace);
    }
  }

  /** The cache behind one registered watch. */
  informer(plural: string, namespace?: string): Informer<KubernetesObject> | undefined {
    return this.byWatch.get(`${plural}/${namespace ?? ''}`);
  }

  // The library's signature, kept so this stays a drop-in override.
  // eslint-disable-next-line max-params
  protected override async watchResource(
    group: string,
    version: string,
    plural: string,
    onEvent: (event: WatchEvent) => Promise<void>,
    namespace?: string,
  ): Promise<void> {
    const spec = this.specs.find((s) => librarySpelling(s).plural === plural && s.namespace === namespace);
    if (spec === undefined) throw new Error(`no watch registered for ${plural}`);
    const { apiVersion, kind } = spec;
    const informer = new Informer<KubernetesObject>(this.api, {
      path: apiPath({ apiVersion, kind, namespace }),
      apiVersion,
      kind,
      labelSelector: spec.labelSelector,
      logger: this.log,
      onRecovered: spec.onRecovered,
      dropStatus: spec.dropStatus,
      markStatusOnly: spec.markStatusOnly,
    });
    const deliver = (type: ResourceEventType) => (object: KubernetesObject, change: Change) => {
      object.apiVersion ??= apiVersion;
      object.kind ??= kind;
      const meta = ResourceMetaImpl.createWithPlural(plural, object);
      void onEvent({ type, object, meta, statusOnly: change.statusOnly });
    };
    informer.on('add', deliver(ResourceEventType.Added));
    informer.on('update', deliver(ResourceEventType.Modified));
    informer.on('delete', deliver(ResourceEventType.Deleted));
    this.informers.push(informer);
    this.byWatch.set(`${plural}/${namespace ?? ''}`, informer);
    await informer.start();
    this.log.info('watching', {
      resource: plural,
      namespace: namespace ?? '*',
      labelSelector: spec.labelSelector,
    });
  }

  get synced(): boolean {
    return this.informers.length === this.specs.length && this.informers.every((i) => i.synced);
  }

  override stop(): void {
    super.stop();
    for (const informer of this.informers) void informer.stop();
  }
}
