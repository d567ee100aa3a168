// Development entry point for the operator alone; `landlord operator` (cli/main.ts) is the real one.
import { COMMON_SETTINGS, makeContext, runComponent } from '../shared/component.js';
import { loadSettings } from '../shared/config.js';
import { createOperator, OPERATOR_SETTINGS, type OperatorSettings } from './index.js';

const settings = loadSettings<OperatorSettings>({ ...COMMON_SETTINGS, ...OPERATOR_SETTINGS }, process.env);
await runComponent(createOperator(settings), makeContext('operator', settings));
