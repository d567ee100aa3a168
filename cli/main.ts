#!/usr/bin/env node
// The image's entrypoint (`node dist/cli/main.js`; the `landlord` bin comes here after its Node.js
// check). The lean-loading redirects must be in place before anything imports client-node, and a
// static import would load the whole CLI first: so they are installed here, then the CLI loads.
import { installLeanLoading } from '../runtime/lean/hooks.js';

installLeanLoading();
await import('./program.js');
