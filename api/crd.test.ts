// Golden test: crds/*.yaml is what `kubectl apply -k config/default` installs, so each file must be
// exactly what its definition in api/ says. A schema change shows up here as a diff to review, and
// is fixed by regenerating the file. The Helm chart carries its own copies (charts/ are packaged
// alone, so they cannot point at crds/), which must be the same bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crdYaml } from './crd.js';
import { ALL_CRDS } from './crds.js';
import { GROUP, PREVIOUS_VERSION, VERSION } from './tenant.js';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe.each(ALL_CRDS)('crds/$name.yaml', ({ name, crd, source }) => {
  const file = read(`crds/${name}.yaml`);

  it(`is the CRD that ${source} defines, byte for byte`, () => {
    const regenerate = `npm run build && node dist/cli/main.js crd ${name} > crds/${name}.yaml`;
    expect(file, `the CRD changed; review the diff, then run: ${regenerate}`).toBe(crdYaml(crd, source));
  });

  it("is the chart's copy, byte for byte", () => {
    const copy = read(`charts/landlord/crds/${name}.yaml`);
    expect(copy, `run: cp crds/${name}.yaml charts/landlord/crds/`).toBe(file);
  });
});

describe('crds/Kustomization', () => {
  it('lists every CRD file', () => {
    const kustomization = read('crds/Kustomization');
    for (const { name } of ALL_CRDS) expect(kustomization).toContain(`  - ${name}.yaml\n`);
  });
});

describe.each(ALL_CRDS)('$name: versions (ADR 0011)', ({ crd }) => {
  const spec = crd.spec as { conversion: unknown; versions: Record<string, unknown>[] };
  const [current, previous] = spec.versions;
  const body = ({
    name,
    served,
    storage,
    deprecated,
    deprecationWarning,
    ...rest
  }: Record<string, unknown>) => {
    void [name, served, storage, deprecated, deprecationWarning];
    return rest;
  };

  it('serves v1beta1, stored, and v1alpha1, deprecated, converted by the API server alone', () => {
    expect(spec.versions.map((v) => [v.name, v.served, v.storage, v.deprecated ?? false])).toEqual([
      [VERSION, true, true, false],
      [PREVIOUS_VERSION, true, false, true],
    ]);
    expect(spec.conversion).toEqual({ strategy: 'None' });
    expect(previous!.deprecationWarning).toContain(`${GROUP}/${VERSION}`);
  });

  it('gives both one schema, one set of printer columns and subresources', () => {
    expect(body(previous!)).toEqual(body(current!));
    expect(Object.keys(body(current!)).sort()).toEqual([
      'additionalPrinterColumns',
      'schema',
      'subresources',
    ]);
  });
});
