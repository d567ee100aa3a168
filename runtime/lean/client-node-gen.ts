// client-node's config.js in place of its generated barrel (gen/index.js): the two names it
// imports from there, from the files that define them. See hooks.ts.
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
