// sync's DynamoDB calls by operation (GetItem, UpdateItem, Scan, GetRecords...), counted by a
// loopback proxy between sync and moto: moto reports no consumed capacity and sync sends no
// ReturnConsumedCapacity, so what row status costs the table is read from the calls and the rows'
// sizes (DynamoDB's pricing: a strongly consistent read is one unit per 4 KB, a write one per 1 KB).
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

/** Operation → calls. */
export type DynamoCalls = Record<string, number>;

/** The operation an `X-Amz-Target` header names ("DynamoDB_20120810.GetItem" → "GetItem"). */
export function operationOf(target: string | string[] | undefined): string {
  const text = Array.isArray(target) ? target[0] : target;
  if (text === undefined || text === '') return 'unknown';
  const dot = text.lastIndexOf('.');
  return dot === -1 ? text : text.slice(dot + 1);
}

/** Calls between two snapshots, only the operations that moved. */
export function callsDelta(before: DynamoCalls, after: DynamoCalls): DynamoCalls {
  const moved: DynamoCalls = {};
  for (const [operation, count] of Object.entries(after)) {
    const delta = count - (before[operation] ?? 0);
    if (delta > 0) moved[operation] = delta;
  }
  return moved;
}

export class DynamoCallCounter {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly server: Server;
  private readonly calls: DynamoCalls = {};

  private constructor(private readonly target: URL) {
    this.server = createServer((req, res) => this.forward(req, res));
  }

  /** Starts the counter on a free loopback port in front of `target` (moto's http:// URL). */
  static async start(target: string): Promise<DynamoCallCounter> {
    const counter = new DynamoCallCounter(new URL(target));
    await new Promise<void>((resolve) => counter.server.listen(0, '127.0.0.1', resolve));
    return counter;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  }

  /** The calls so far, by operation (a copy). */
  snapshot(): DynamoCalls {
    return { ...this.calls };
  }

  close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const operation = operationOf(req.headers['x-amz-target']);
    this.calls[operation] = (this.calls[operation] ?? 0) + 1;
    const upstream = request({
      agent: this.agent,
      host: this.target.hostname,
      port: this.target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: this.target.host },
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}
