// The Tenant the operator would see right after sync applied a row's spec: the live Tenant's
// identity (uid, a generation one further) with the row's spec, as plain JSON, the way the API
// server hands it over. `landlord validate` judges it with no live Tenant, `landlord plan` with one.
// With the table the row is in, the Tenant carries it as sync stamps it on every apply (the
// annotation, and sync's field manager owning it), so a class's allowedTables is judged as the
// operator would judge it.
import { withStampProof } from '../api/table-identity.js';
import { ANNOTATION, API_VERSION, KIND, type Tenant, type TenantSpec } from '../api/tenant.js';
import { appliedSpec } from '../sync/tenant-writer.js';

export function appliedTenant(name: string, spec: TenantSpec, current?: Tenant, table?: string): Tenant {
  const read = current?.metadata ?? { name };
  const metadata = table === undefined ? read : withStampProof(read);
  const annotations =
    table === undefined ? metadata.annotations : { ...metadata.annotations, [ANNOTATION.table]: table };
  const tenant: Tenant = {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      ...metadata,
      name,
      generation: (metadata.generation ?? 0) + 1,
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: appliedSpec(spec),
    ...(current?.status === undefined ? {} : { status: current.status }),
  };
  return JSON.parse(JSON.stringify(tenant)) as Tenant;
}
