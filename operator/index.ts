// The operator component: makes each Tenant's children exist exactly as its spec says. The CLI
// (`landlord operator`) merges OPERATOR_SETTINGS with the common settings, loads them, and runs
// createOperator(settings).
export { createOperator } from './component.js';
export { OPERATOR_SETTINGS, type OperatorSettings } from './settings.js';
export { POLICY_SETTINGS, policyConfig, watchScopes, type PolicySettings } from './settings.js';
