// Every CustomResourceDefinition landlord defines, with the file each is rendered to under crds/.
// `landlord crd` prints them, the golden test compares them with the files, and the operator
// installs (or checks) the ones it reads.
import { TENANT_CRD, type Schema } from './crd.js';
import { TENANT_CLASS_CRD } from './tenantclass-crd.js';

export interface CrdDefinition {
  /** The CRD's metadata.name, e.g. tenants.landlord.dev. */
  name: string;
  /** The file under api/ that defines it, named in the generated YAML's header. */
  source: string;
  crd: Schema;
}

export const CRDS = {
  tenants: { name: TENANT_CRD.metadata.name, source: 'api/crd.ts', crd: TENANT_CRD },
  tenantClasses: {
    name: TENANT_CLASS_CRD.metadata.name,
    source: 'api/tenantclass-crd.ts',
    crd: TENANT_CLASS_CRD,
  },
} as const satisfies Record<string, CrdDefinition>;

export const ALL_CRDS: readonly CrdDefinition[] = Object.values(CRDS);
