// A loopback HTTP proxy in front of one server, for what a benchmark must see between a component
// and moto: a fixed hold before each request is forwarded (the round trip to a DynamoDB region that
// moto on loopback does not have, so that concurrent requests against sequential ones see the
// latency concurrency hides), and a look at each request as it passes (bench/dynamo-calls.ts counts
// sync's calls by operation).
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

export interface ProxyOptions {
  /** How long each request is held before it is forwarded; 0 (the default) forwards at once. */
  delayMs?: number;
  /** Called with each request before it is forwarded. */
  onRequest?: (req: IncomingMessage) => void;
}

export class LoopbackProxy {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  private readonly server: Server;

  private constructor(
    private readonly target: URL,
    private readonly options: ProxyOptions,
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Starts the proxy on a free loopback port in front of `target` (an http:// URL). */
  static async start(target: string, options: ProxyOptions = {}): Promise<LoopbackProxy> {
    const proxy = new LoopbackProxy(new URL(target), options);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get delayMs(): number {
    return this.options.delayMs ?? 0;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  }

  close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.options.onRequest?.(req);
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
    // Half the round trip on the way there is as good as all of it: the request waits, then goes.
    if (this.delayMs > 0) setTimeout(() => req.pipe(upstream), this.delayMs);
    else req.pipe(upstream);
  }
}
