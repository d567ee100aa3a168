// The local control plane is real: these show the API-server behaviours landlord depends on.
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  ApiException,
  PatchStrategy,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../harness/wait.js';
import { createTenantTable } from '../harness/tenant-table.js';
import { dynamoClient, streamsClient } from './support/dynamo.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';

const WIDGET_CRD: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.e2e.landlord.dev' },
  spec: {
    group: 'e2e.landlord.dev',
    scope: 'Cluster',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: { size: { type: 'integer', minimum: 1 } },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

function statusCode(err: unknown): number | undefined {
  return err instanceof ApiException ? err.code : undefined;
}

describe('the local control plane', () => {
  const { kc, core, apps, custom, objects } = clients();

  it('serves a CRD with a status subresource and printer columns, and enforces its schema', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: WIDGET_CRD });
    await waitUntil(
      'the Widget CRD to be established',
      async () => {
        const crd = await ext.readCustomResourceDefinition({ name: WIDGET_CRD.metadata!.name! });
        return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      },
      { timeoutMs: 30_000 },
    );
    const group = 'e2e.landlord.dev';
    await waitUntil(
      'the widgets resource to be served',
      () => custom.listClusterCustomObject({ group, version: 'v1', plural: 'widgets' }).then(() => true),
      { timeoutMs: 30_000 },
    );
    await custom.createClusterCustomObject({
      group,
      version: 'v1',
      plural: 'widgets',
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'ok' }, spec: { size: 3 } },
    });
    const invalid = custom.createClusterCustomObject({
      group,
      version: 'v1',
      plural: 'widgets',
      body: { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'bad' }, spec: { size: 'big' } },
    });
    await expect(invalid).rejects.toSatisfy((err) => statusCode(err) === 422);
    // The main resource ignores status; only the subresource writes it.
    await custom.patchClusterCustomObjectStatus({
      group,
      version: 'v1',
      plural: 'widgets',
      name: 'ok',
      body: [{ op: 'add', path: '/status', value: { phase: 'Shiny' } }],
    });
    const table = await kubectl(
      'get',
      'widgets',
      'ok',
      '--no-headers',
      '-o',
      'custom-columns=SIZE:.spec.size,PHASE:.status.phase',
    );
    expect(table.trim().split(/\s+/)).toEqual(['3', 'Shiny']);
    const printed = await kubectl('get', 'widgets');
    // The CRD's printer column, not the default NAME/AGE pair.
    expect(printed.split('\n')[0]?.split(/\s+/)).toEqual(['NAME', 'SIZE']);
  });

  it('reports a server-side apply conflict between two field managers, and force resolves it', async () => {
    const name = uniqueName('ssa');
    const cm = (value: string): KubernetesObject & { data: Record<string, string> } => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
      data: { key: value },
    });
    await objects.patch(cm('one'), undefined, undefined, 'manager-a', false, PatchStrategy.ServerSideApply);
    const conflict = objects.patch(
      cm('two'),
      undefined,
      undefined,
      'manager-b',
      false,
      PatchStrategy.ServerSideApply,
    );
    await expect(conflict).rejects.toSatisfy((err) => statusCode(err) === 409);
    await objects.patch(cm('two'), undefined, undefined, 'manager-b', true, PatchStrategy.ServerSideApply);
    const read = await core.readNamespacedConfigMap({ name, namespace: 'default' });
    expect(read.data).toEqual({ key: 'two' });
    expect(read.metadata?.managedFields?.map((f) => f.manager)).toContain('manager-b');
  });

  it('schedules a Deployment onto the kwok node, its pods become Ready and it reports Available', async () => {
    const name = uniqueName('web');
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'web', image: 'nginx:latest' }] },
          },
        },
      },
    });
    const deployment = await waitUntil(
      'the Deployment to be Available',
      async () => {
        const d = await apps.readNamespacedDeployment({ name, namespace: 'default' });
        const available = d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True');
        return available && d.status?.readyReplicas === 2 ? d : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(deployment.status?.availableReplicas).toBe(2);
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${name}` });
    expect(pods.items).toHaveLength(2);
    for (const pod of pods.items) {
      expect(pod.spec?.nodeName).toBe('kwok-node-0');
      expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
  });

  it('garbage-collects a ConfigMap whose owner was deleted', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: uniqueName('owner') } },
    });
    const child = uniqueName('child');
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: child,
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: owner.metadata!.name!,
              uid: owner.metadata!.uid!,
              blockOwnerDeletion: true,
              controller: true,
            },
          ],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ name: owner.metadata!.name!, namespace: 'default' });
    await waitUntil(
      'the garbage collector to delete the orphaned ConfigMap',
      () =>
        core.readNamespacedConfigMap({ name: child, namespace: 'default' }).then(
          () => false,
          (err: unknown) => statusCode(err) === 404,
        ),
      { timeoutMs: 60_000 },
    );
  });

  it('delivers a DynamoDB Streams record after a PutItem (moto)', async () => {
    const dynamo = dynamoClient();
    const streams = streamsClient();
    const table = uniqueName('stream-check');
    await createTenantTable(dynamo, table);
    const described = await dynamo.send(new DescribeTableCommand({ TableName: table }));
    const streamArn = described.Table?.LatestStreamArn;
    expect(streamArn).toBeDefined();
    await dynamo.send(
      new PutItemCommand({ TableName: table, Item: { name: { S: 'tenant-x' }, deleted: { BOOL: false } } }),
    );
    const stream = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const shardId = stream.StreamDescription?.Shards?.[0]?.ShardId;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    const records = await streams.send(new GetRecordsCommand({ ShardIterator }));
    expect(records.Records?.map((r) => [r.eventName, r.dynamodb?.Keys?.name?.S])).toEqual([
      ['INSERT', 'tenant-x'],
    ]);
  });

  it('works with the machine’s kubectl through the generated kubeconfig', async () => {
    const nodes = await kubectl('get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}');
    expect(nodes).toBe('kwok-node-0');
    const auth = await kubectl('auth', 'can-i', 'create', 'deployments', '--all-namespaces');
    expect(auth.trim()).toBe('yes');
  });
});
