// A loopback proxy that holds every request for a fixed time before forwarding it: the round trip
// to a DynamoDB region that moto on loopback does not have, so that a measurement of concurrent
// requests against sequential ones sees the latency that concurrency hides.
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';

export class LatencyProxy {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  private readonly server: Server;

  private constructor(
    private readonly target: URL,
    readonly delayMs: number,
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Starts the proxy on a free loopback port in front of `target` (an http:// URL). */
  static async start(target: string, delayMs: number): Promise<LatencyProxy> {
    const proxy = new LatencyProxy(new URL(target), delayMs);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
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
    setTimeout(() => req.pipe(upstream), this.delayMs);
  }
}
