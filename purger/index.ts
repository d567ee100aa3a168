// The purger component: deletes the data of Tenants in state purged from the data tables, after a
// delay. The CLI (`landlord purger`) merges PURGER_SETTINGS with the common settings, loads them,
// and runs createPurger(settings).
export { createPurger } from './component.js';
export { PURGER_SETTINGS, type PurgerSettings } from './settings.js';
