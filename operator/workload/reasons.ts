// What the workload facet says where people look: the TemplateUpgradePending condition's reason and
// why a list of Deployments is refused, part of landlord's API (people and alerts match on them).
// Named by the rule every reasons.ts follows (<OWNER>_REASON, _MESSAGE; docs/architecture.md) and
// kept in the facet's folder.
/** The TemplateUpgradePending condition's reason and message (operator/workload/, rollout-budget.ts). */
export const WORKLOAD_REASON = {
  /** True: the operator's newer pod template waits for a slot of the upgrade budget. */
  waitingForRolloutSlot: 'WaitingForRolloutSlot',
} as const;

/** Where a Tenant lists its Deployments, as the refusals of the list name it. */
export const DEPLOYMENTS_PATH = 'spec.deployments';

/**
 * What the workload facet says: why an upgrade's pod template waits (TemplateUpgradePending), and
 * why a list of Deployments is refused as a list (InvalidSpec, LimitExceeded).
 */
export const WORKLOAD_MESSAGE = {
  waiting: (deployment: string, revision: number): string =>
    `${deployment} keeps its running pods until a rollout slot frees ` +
    `(LANDLORD_OPERATOR_UPGRADE_ROLLOUTS); then it rolls out the operator's pod template revision ${revision}`,
  both: `spec.deployment and ${DEPLOYMENTS_PATH} are both set; a Tenant holds exactly one of them (sync writes one, from the row's spec)`,
  empty: `${DEPLOYMENTS_PATH} lists no Deployment; a row runs at least one`,
  tooMany: (count: number, max: number): string =>
    `${DEPLOYMENTS_PATH}: ${count} Deployments is over the tenant class's limit maxDeployments of ${max}; split the services across tenants, or ask for a class with a higher limit`,
  tooLarge: (bytes: number, max: number): string =>
    `${DEPLOYMENTS_PATH} and spec.configMaps (bytes of JSON): ${bytes} is over the tenant class's limit maxRowBytes of ${max}; make the row smaller: move large data out of the manifests`,
  shared: (className: string, count: number): string =>
    `${DEPLOYMENTS_PATH}: ${count} Deployment${count === 1 ? '' : 's'} listed, but the tenant class "${className}" is Shared (its tenants share one namespace), where a tenant runs exactly 1 Deployment, written as one object, not a list: the checks that keep neighbours' names and pod labels apart compare one per tenant; write the row's spec as one Deployment, or ask for a PerTenant class`,
  duplicate: (path: string, name: string, first: string): string =>
    `${path}.metadata.name: "${name}" is ${first}'s name too; each Deployment needs its own name`,
  overlap: (path: string, other: string): string =>
    `${path}.spec.selector selects the pods of ${other}: two Deployments would fight over them; give each its own pod labels and a selector only its own match`,
} as const;
