// The pool controller's writes of its members: each made or completed through the operator's
// Applier (operator/apply.ts), the one apply path tenants' children take, so an object that already
// matches costs no write and the Deployment comes last, once the member's quota is enforced; and an
// unclaimed member's removal, conditioned on the version the pass saw. The Namespace and Deployment
// of a member are in the pool's caches; its other objects are not, and are read only when an apply
// finds them there. What each fill wrote is remembered, as lean as the caches keep objects (no
// Secret values), until the member is claimed or gone: the next fill of a half-made member skips
// what already matches without reading it (only the quota is read, for its status), and the
// claiming tenant's apply names those objects by uid without reading them first (claim.ts).
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ClassPolicy } from '../../api/tenantclass.js';
import { lighten } from '../../runtime/kube/informer.js';
import { unreadOf } from '../facets/kinds.js';
import { ApiError, isConflict, isNotFound, type KubeApi } from '../../runtime/kube/api.js';
import { apiPath } from '../../runtime/kube/paths.js';
import { Applier, readChild } from '../apply.js';
import { childKey, childRef, errorText, type ChildRef } from '../child-ref.js';
import type { PoolCaches } from '../watches.js';
import type { DesiredChild } from '../desired.js';
import { memberChildren, type PoolBlueprint } from './member-objects.js';
import type { Member } from './members.js';

/** What a class's members are made from in one pass. */
export interface MemberSpec {
  tenantClass: ClassPolicy;
  classUid: string;
  blueprint: Extract<PoolBlueprint, { ok: true }>;
}

/** How a fill ended: complete; its Deployment waiting for the quota; a new member's name taken. */
export type Filled = 'complete' | 'waiting' | 'taken';

/** A new member's name is held by an object the caches did not show. */
class NameTaken extends Error {}

export class MemberWrites {
  /**
   * A claim applies the member's objects again as the tenant's, under the same field manager:
   * created by apply, they have no create's fields for that apply to take over first.
   */
  private readonly applier: Applier;
  /** member → its class, while its Deployment waits for the member's quota to be enforced. */
  private readonly quotaWaits = new Map<string, string>();
  /** member → its class and what its fills wrote, by child key, lightened (runtime/kube/informer.ts). */
  private readonly made = new Map<string, { className: string; objects: Map<string, KubernetesObject> }>();

  constructor(
    private readonly api: KubeApi,
    private readonly caches: PoolCaches,
  ) {
    this.applier = new Applier(api, { createBy: 'apply' });
  }

  /** Whether the member's Deployment waits for its quota (the controller looks again soon). */
  waitsForQuota(name: string): boolean {
    return this.quotaWaits.has(name);
  }

  /** The class's members now: one gone meanwhile no longer waits, and nothing of it is remembered. */
  keepOnly(className: string, members: readonly Member[]): void {
    const names = new Set(members.map((m) => m.name));
    for (const [name, owner] of this.quotaWaits) {
      if (owner === className && !names.has(name)) this.forget(name);
    }
    for (const name of this.made.keys()) {
      if (!names.has(name) && this.made.get(name)?.className === className) this.made.delete(name);
    }
  }

  /**
   * Applies what a member holds that is missing or drifted, in the Applier's waves: its Namespace,
   * what fences it in, then the Deployment once the quota is enforced (so the quota and limits
   * apply to its pods). `existing`: the caches show the member (a new one's are not looked up).
   */
  async fill(
    { tenantClass, classUid, blueprint }: MemberSpec,
    name: string,
    existing: boolean,
  ): Promise<Filled> {
    const desired = memberChildren(blueprint, tenantClass, classUid, name);
    const seen = existing ? await this.seenOf(name, desired) : desired.map(() => undefined);
    try {
      const applied = await this.applier.applyDrifted(name, desired, seen, {
        claim: (ref) => this.takeUnseen(ref),
      });
      this.remember(name, tenantClass.name, desired, applied.objects);
      if (applied.quotaWait === undefined) {
        this.forget(name);
        return 'complete';
      }
    } catch (err) {
      if (err instanceof NameTaken) return 'taken';
      throw err;
    }
    this.quotaWaits.set(name, tenantClass.name);
    return 'waiting';
  }

  /**
   * What an existing member holds, as far as it is known without reading: its Namespace and
   * Deployments from the pool's caches, the rest as its fills wrote them; the quota is read, since
   * whether the workload may follow depends on its status. Unknown (made before a restart): the
   * apply reads what it finds.
   */
  private async seenOf(
    name: string,
    desired: readonly DesiredChild[],
  ): Promise<(KubernetesObject | undefined)[]> {
    const made = this.made.get(name)?.objects;
    return Promise.all(
      desired.map(async ({ ref }) =>
        ref.kind === 'ResourceQuota' && made?.has(childKey(ref)) === true
          ? await readChild(this.api, ref)
          : (this.cachedOf(ref) ?? made?.get(childKey(ref))),
      ),
    );
  }

  /**
   * The member's objects as its fills wrote them, forgotten here: a tenant claimed the member
   * (claim.ts). Undefined for one this process did not fill (made before a restart): the claiming
   * tenant's apply then reads what it finds.
   */
  handOver(name: string): Map<string, KubernetesObject> | undefined {
    const made = this.made.get(name);
    this.made.delete(name);
    return made?.objects;
  }

  /**
   * A fill's objects (those written, or found already matching), as lean as the caches keep them; not
   * the Namespace and Deployments, which the pool's caches hold.
   */
  private remember(
    name: string,
    className: string,
    desired: readonly DesiredChild[],
    objects: readonly (KubernetesObject | undefined)[],
  ): void {
    const held = this.made.get(name)?.objects ?? new Map<string, KubernetesObject>();
    desired.forEach(({ ref }, i) => {
      const object = objects[i];
      if (object?.metadata?.uid === undefined || ref.kind === 'Namespace' || ref.kind === 'Deployment')
        return;
      held.set(childKey(ref), lighten(object, unreadOf(ref.kind)));
    });
    this.made.set(name, { className, objects: held });
  }

  private cachedOf(ref: ChildRef): KubernetesObject | undefined {
    const { namespaces, deployments } = this.caches;
    if (ref.kind === 'Namespace') return namespaces.list().find((ns) => ns.metadata?.name === ref.name);
    if (ref.kind === 'Deployment')
      return deployments?.list(ref.namespace).find((d) => d.metadata?.name === ref.name);
    return undefined;
  }

  /**
   * An apply found an object the caches do not show. A Namespace: the name is taken (the next pass
   * draws another id). Anything in a member's namespace, which the class controls: the pool's,
   * read to be compared.
   */
  private async takeUnseen(ref: ChildRef): Promise<KubernetesObject | undefined> {
    if (ref.kind === 'Namespace') throw new NameTaken(`namespace ${ref.name} exists`);
    return await readChild(this.api, ref);
  }

  private forget(name: string): void {
    this.quotaWaits.delete(name);
    this.applier.forget(name);
  }

  /**
   * Deletes an unclaimed member, on the condition that it is still the version the pass saw: a
   * member claimed meanwhile has another resourceVersion, and the API server refuses (409). False
   * when it was gone or changed.
   */
  async remove(member: Member): Promise<boolean> {
    try {
      await this.api.request({
        method: 'DELETE',
        path: apiPath(childRef('Namespace', '', member.name)),
        body: {
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          preconditions: { uid: member.uid, resourceVersion: member.resourceVersion },
          propagationPolicy: 'Background',
        },
      });
      this.forget(member.name);
      this.made.delete(member.name);
      return true;
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return false;
      throw err instanceof ApiError ? err : new Error(errorText(err));
    }
  }
}
