// PerTenant: the ServiceAccount landlord makes in the tenant's namespace for its pods. tenancy/
// makes it and policy/ runs the pods as it; named here, below both, so neither imports the other.
export const TENANT_SERVICE_ACCOUNT = 'landlord-tenant';
