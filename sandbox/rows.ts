// The sandbox's example rows, in the exact format users write today (spec and customizations as
// JSON text). tenant-3 is broken on purpose, to show what a refused row looks like; shop names the
// sandbox's exposed class (EXPOSED_CLASS), to show a tenant's Service, Ingress and URL.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Row = Record<string, AttributeValue>;

function deployment(name: string, replicas: number, image: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `${name}-app`, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  });
}

function configMaps(name: string, data: Record<string, string>): string {
  return JSON.stringify([
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-config`, namespace: 'default' }, data },
  ]);
}

/** The class of the sandbox's one exposed tenant (sandbox.ts installs it). */
export const EXPOSED_CLASS = 'web';
export const EXPOSED_TENANT = 'shop';

/** A new exposed tenant's row, as a signup service would put it (`npm run sandbox:row -- signup`). */
export function signupRow(name: string): Row {
  return {
    name: { S: name },
    class: { S: EXPOSED_CLASS },
    spec: { S: deployment(name, 1, 'nginx:1.27') },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  };
}

export const EXAMPLE_ROWS: Row[] = [
  {
    name: { S: 'tenant-1' },
    spec: { S: deployment('tenant-1', 1, 'nginx:latest') },
    customizations: { S: configMaps('tenant-1', { 'config.json': '{"key": "value"}' }) },
    deleted: { BOOL: false },
  },
  {
    name: { S: 'tenant-2' },
    spec: { S: deployment('tenant-2', 2, 'nginx:1.27') },
    customizations: { S: configMaps('tenant-2', { 'greeting.txt': 'hello from tenant-2' }) },
    deleted: { BOOL: false },
  },
  {
    name: { S: 'tenant-3' },
    // A missing closing brace: sync refuses the row and says which attribute is wrong.
    spec: { S: deployment('tenant-3', 1, 'nginx:1.27').slice(0, -1) },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  },
  {
    name: { S: EXPOSED_TENANT },
    class: { S: EXPOSED_CLASS },
    spec: { S: deployment(EXPOSED_TENANT, 1, 'nginx:1.27') },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  },
];
