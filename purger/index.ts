// The purger component: deletes the data of Tenants in state purged from the data tables, after a
// delay. The CLI (`landlord purger`) loads PURGER_SETTINGS (settings.ts) and runs
// createPurger(settings).
export { createPurger } from './component.js';
