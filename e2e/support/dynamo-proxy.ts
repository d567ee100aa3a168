// A loopback proxy in front of the run's DynamoDB (moto), through which a test makes DynamoDB
// misbehave for sync alone, the way the real service and network do: connections refused,
// requests that hang, throttling (HTTP 400 ProvisionedThroughputExceededException, as DynamoDB
// answers it), a Scan that fails on its later pages, and BatchWriteItem calls done only in part
// (the rest answered as UnprocessedItems, as a throttled table does), and requests of one
// operation held until the test lets them go (a write arriving after an edit made meanwhile).
// Everything else passes through untouched.
import {
  createServer,
  request,
  type IncomingMessage,
  type RequestOptions,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { seededRandom } from './suite.js';

export type ProxyMode = 'pass' | 'refuse' | 'hang';

export interface ProxyStats {
  /** Requests received, by operation (the X-Amz-Target after the dot: Scan, GetRecords, …). */
  byOperation: Map<string, number>;
  throttled: number;
  failedPages: number;
  hung: number;
  /** BatchWriteItem requests done only in part. */
  partial: number;
  /** Write requests held back and answered as UnprocessedItems. */
  unprocessed: number;
}

type RequestItems = Record<string, unknown[]>;

const THROTTLED = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message:
    'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
});

function operationOf(req: IncomingMessage): string {
  const target = req.headers['x-amz-target'];
  return typeof target === 'string' ? (target.split('.').pop() ?? target) : 'unknown';
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A later page of a Scan: the request continues from where the previous page stopped. */
function isLaterScanPage(operation: string, body: Buffer): boolean {
  if (operation !== 'Scan') return false;
  try {
    return (
      (JSON.parse(body.toString('utf8')) as { ExclusiveStartKey?: unknown }).ExclusiveStartKey !== undefined
    );
  } catch {
    return false;
  }
}

export class DynamoProxy {
  readonly stats: ProxyStats = {
    byOperation: new Map(),
    throttled: 0,
    failedPages: 0,
    hung: 0,
    partial: 0,
    unprocessed: 0,
  };
  private mode: ProxyMode = 'pass';
  private throttleShare = 0;
  private failLaterScanPages = false;
  private partialShare = 0;
  private random = seededRandom(1);
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<ServerResponse>();
  /** Requests of these operations wait here, in order, until released. */
  private readonly holding = new Map<string, (() => void)[]>();
  private readonly server: Server;
  private port = 0;

  private constructor(private readonly target: URL) {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Starts a proxy on a free loopback port in front of `target` (an http:// URL). */
  static async start(target: string): Promise<DynamoProxy> {
    const proxy = new DynamoProxy(new URL(target));
    await proxy.listen(0);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests seen for an operation so far. */
  count(operation: string): number {
    return this.stats.byOperation.get(operation) ?? 0;
  }

  /**
   * pass: forward everything. refuse: stop listening and drop every open connection, so clients
   * get ECONNREFUSED or a reset. hang: accept requests and never answer them.
   */
  async setMode(mode: ProxyMode): Promise<void> {
    const previous = this.mode;
    this.mode = mode;
    if (previous === 'hang' && mode !== 'hang') this.releaseHeld();
    if (mode === 'refuse' && previous !== 'refuse') await this.stopListening();
    if (mode !== 'refuse' && previous === 'refuse') await this.listen(this.port);
  }

  /** Answers this share (0..1) of requests with throttling, chosen by a seeded generator. */
  throttle(share: number, seed = 7): void {
    this.throttleShare = share;
    this.random = seededRandom(seed);
  }

  /** While on, every Scan request after the first page fails with throttling, retries included. */
  failScansAfterFirstPage(on: boolean): void {
    this.failLaterScanPages = on;
  }

  /**
   * Does this share (0..1) of BatchWriteItem requests only in part: the first half of each table's
   * requests reaches DynamoDB, the rest comes back as UnprocessedItems.
   */
  partialBatchWrites(share: number, seed = 11): void {
    this.partialShare = share;
    this.random = seededRandom(seed);
  }

  /** Holds every request of this operation (UpdateItem, …) until release(): sent late, as sent. */
  hold(operation: string): void {
    if (!this.holding.has(operation)) this.holding.set(operation, []);
  }

  /** Sends on the requests of this operation held so far, and stops holding it. */
  release(operation: string): void {
    const waiting = this.holding.get(operation) ?? [];
    this.holding.delete(operation);
    for (const send of waiting) send();
  }

  async close(): Promise<void> {
    for (const operation of [...this.holding.keys()]) this.release(operation);
    this.releaseHeld();
    await this.stopListening();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const operation = operationOf(req);
    this.stats.byOperation.set(operation, this.count(operation) + 1);
    const waiting = this.holding.get(operation);
    if (waiting !== undefined) {
      waiting.push(() => this.forward(req, body, res));
      return;
    }
    if (this.mode === 'hang') {
      this.stats.hung += 1;
      this.held.add(res);
      return;
    }
    if (this.failLaterScanPages && isLaterScanPage(operation, body)) {
      this.stats.failedPages += 1;
      this.answerThrottled(res);
    } else if (this.throttleShare > 0 && this.random() < this.throttleShare) {
      this.stats.throttled += 1;
      this.answerThrottled(res);
    } else if (operation === 'BatchWriteItem' && this.partialShare > 0 && this.random() < this.partialShare) {
      this.forwardPart(req, body, res);
    } else {
      this.forward(req, body, res);
    }
  }

  private answerThrottled(res: ServerResponse): void {
    res.writeHead(400, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': `landlord-e2e-${Date.now()}`,
    });
    res.end(THROTTLED);
  }

  private forward(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const upstream = request(
      {
        host: this.target.hostname,
        port: this.target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: this.target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // DynamoDB unreachable behind the proxy looks the same to the client: a dropped connection.
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  }

  /** Forwards the first half of each table's write requests and answers the rest as unprocessed. */
  private forwardPart(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const input = JSON.parse(body.toString('utf8')) as { RequestItems: RequestItems };
    const sent: RequestItems = {};
    const held: RequestItems = {};
    for (const [table, requests] of Object.entries(input.RequestItems)) {
      const keep = Math.floor(requests.length / 2);
      if (keep > 0) sent[table] = requests.slice(0, keep);
      held[table] = requests.slice(keep);
      this.stats.unprocessed += requests.length - keep;
    }
    this.stats.partial += 1;
    if (Object.keys(sent).length === 0) {
      this.answerJson(res, { UnprocessedItems: held });
      return;
    }
    const upstream = request(this.upstreamOptions(req), (answer) => {
      void readBody(answer).then((text) => {
        if (answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
          return;
        }
        const out = JSON.parse(text.toString('utf8')) as { UnprocessedItems?: RequestItems };
        const merged: RequestItems = { ...out.UnprocessedItems };
        for (const [table, requests] of Object.entries(held))
          merged[table] = [...(merged[table] ?? []), ...requests];
        this.answerJson(res, { ...out, UnprocessedItems: merged });
      });
    });
    upstream.on('error', () => res.destroy());
    upstream.end(JSON.stringify({ ...input, RequestItems: sent }));
  }

  private answerJson(res: ServerResponse, value: unknown): void {
    // A fresh body: no x-amz-crc32 of the original, the length of this one.
    res.writeHead(200, {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': `landlord-e2e-${Date.now()}`,
    });
    res.end(JSON.stringify(value));
  }

  private upstreamOptions(req: IncomingMessage): RequestOptions {
    const headers = { ...req.headers, host: this.target.host };
    // The body is rewritten: let Node send its new length.
    delete headers['content-length'];
    return { host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers };
  }

  private releaseHeld(): void {
    for (const res of this.held) res.socket?.destroy();
    this.held.clear();
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        const address = this.server.address();
        this.port = typeof address === 'object' && address !== null ? address.port : port;
        resolve();
      });
    });
  }

  private stopListening(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    return closed;
  }
}
