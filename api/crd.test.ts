// Golden test: crds/tenants.landlord.dev.yaml is what `kubectl apply -k config/default` installs, so
// it must be exactly what api/crd.ts defines. A schema change shows up here as a diff to review,
// and is fixed by regenerating the file. The Helm chart carries its own copy (charts/ are packaged
// alone, so it cannot point at crds/), which must be the same bytes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crdYaml } from './crd.js';

const file = readFileSync(new URL('../crds/tenants.landlord.dev.yaml', import.meta.url), 'utf8');

describe('crds/tenants.landlord.dev.yaml', () => {
  it('is the CRD that api/crd.ts defines, byte for byte', () => {
    const regenerate = 'npm run build && node dist/cli/main.js crd > crds/tenants.landlord.dev.yaml';
    expect(file, `the CRD changed; review the diff, then run: ${regenerate}`).toBe(crdYaml());
  });

  it("is the chart's copy, byte for byte", () => {
    const copy = readFileSync(
      new URL('../charts/landlord/crds/tenants.landlord.dev.yaml', import.meta.url),
      'utf8',
    );
    expect(copy, 'run: cp crds/tenants.landlord.dev.yaml charts/landlord/crds/').toBe(file);
  });
});
