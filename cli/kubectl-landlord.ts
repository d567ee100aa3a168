#!/usr/bin/env node
// The `kubectl-landlord` bin: kubectl runs any `kubectl-<name>` on PATH as `kubectl <name>`, with the
// rest of the command line as its arguments, so `kubectl landlord history tenant-1` is
// `landlord history tenant-1`. The same program, reached by a second name.
await import('./landlord.js');
