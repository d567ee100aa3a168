// The operator component: makes each Tenant's children exist exactly as its spec says. The CLI
// (`landlord operator`) loads OPERATOR_SETTINGS (settings.ts, imported apart so that help and a bad
// setting load no component code) and runs createOperator(settings).
export { createOperator } from './component.js';
