// node:http for ES modules, in place of Node's own ESM face of it. Node builds that face by reading
// every export once, and three (WebSocket, CloseEvent, MessageEvent) are getters that load Node's
// bundled copy of undici: ~13 MiB for a WebSocket nobody here opens. This face is the same module
// object (the default export) and every other export; require('node:http') is untouched, and
// http.WebSocket still loads on first use. See hooks.ts.
import { createRequire } from 'node:module';
import type * as Http from 'node:http';

const http = createRequire(import.meta.url)('node:http') as typeof Http;

export default http;
export const {
  METHODS,
  STATUS_CODES,
  Agent,
  ClientRequest,
  IncomingMessage,
  OutgoingMessage,
  Server,
  ServerResponse,
  createServer,
  validateHeaderName,
  validateHeaderValue,
  get,
  request,
  setMaxIdleHTTPParsers,
  maxHeaderSize,
  globalAgent,
} = http;
