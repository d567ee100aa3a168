// The sync component: mirrors a DynamoDB table into Tenants. The CLI (`landlord sync`) merges
// SYNC_SETTINGS with the common settings, loads them, and runs createSync(settings).
export { createSync } from './component.js';
export { SYNC_SETTINGS, type SyncSettings } from './settings.js';
export type { Change, ChangeBatch, Item, TableSource } from './dynamo/table-source.js';
