// Development entry point for sync alone; `landlord sync` (cli/main.ts) is the real one.
import { COMMON_SETTINGS, makeContext, runComponent } from '../shared/component.js';
import { loadSettings } from '../shared/config.js';
import { createSync, SYNC_SETTINGS, type SyncSettings } from './index.js';

const settings = loadSettings<SyncSettings>({ ...COMMON_SETTINGS, ...SYNC_SETTINGS }, process.env);
const ctx = makeContext('sync', settings);
await runComponent(createSync(settings), ctx);
