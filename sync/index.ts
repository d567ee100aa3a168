// The sync component: mirrors a DynamoDB table into Tenants. The CLI (`landlord sync`) loads
// SYNC_SETTINGS (settings.ts) and runs createSync(settings).
export { createSync } from './component.js';
export type { TableSource } from './dynamo/table-source.js';
