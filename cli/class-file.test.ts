// The classes file of `landlord validate --classes`: what kubectl prints and admins write is read,
// anything else is named by document.
import { describe, expect, it } from 'vitest';
import { parseClassFile } from './class-file.js';

const CLASS = `apiVersion: landlord.dev/v1beta1
kind: TenantClass
metadata: {name: standard}
spec: {namespace: {mode: PerTenant}}
`;

describe('parseClassFile', () => {
  it('reads one class, several documents, and a List as kubectl get -o yaml prints it', () => {
    const two = `${CLASS}---\n${CLASS.replace('standard', 'gold')}`;
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${CLASS.trimEnd().replaceAll('\n', '\n  ')}\n`;
    const names = (text: string): string[] => {
      const read = parseClassFile(text);
      return read.ok ? read.classes.map((c) => c.metadata.name ?? '') : [read.problem];
    };
    expect(names(CLASS)).toEqual(['standard']);
    expect(names(two)).toEqual(['standard', 'gold']);
    expect(names(list)).toEqual(['standard']);
    expect(names(JSON.stringify({ kind: 'List', items: [] }))).toEqual([]);
  });

  it('reads a class written under the deprecated v1alpha1 as the same class', () => {
    const read = parseClassFile(CLASS.replace('v1beta1', 'v1alpha1'));
    expect(read).toEqual(parseClassFile(CLASS));
    expect(read.ok && read.classes[0]!.apiVersion).toBe('landlord.dev/v1beta1');
  });

  it('names the document that is not a TenantClass, or not YAML at all', () => {
    const configMap = `${CLASS}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n`;
    expect(parseClassFile(configMap)).toEqual({
      ok: false,
      problem:
        'document 2: expected apiVersion landlord.dev/v1beta1 or landlord.dev/v1alpha1, kind TenantClass; found v1 ConfigMap',
    });
    expect(parseClassFile(CLASS.replace('metadata: {name: standard}', 'metadata: {}'))).toEqual({
      ok: false,
      problem: 'document 1: a TenantClass needs metadata.name',
    });
    const broken = parseClassFile('kind: [');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problem).toMatch(/^not YAML or JSON: /);
  });
});
