// sync's DynamoDB calls by operation (GetItem, UpdateItem, Scan, GetRecords...), counted by a
// loopback proxy between sync and moto: moto reports no consumed capacity and sync sends no
// ReturnConsumedCapacity, so what row status costs the table is read from the calls and the rows'
// sizes (DynamoDB's pricing: a strongly consistent read is one unit per 4 KB, a write one per 1 KB).
import type { IncomingMessage } from 'node:http';
import { LoopbackProxy } from '../harness/loopback-proxy.js';

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
  private constructor(
    private readonly proxy: LoopbackProxy,
    private readonly calls: DynamoCalls,
  ) {}

  /** Starts the counter on a free loopback port in front of `target` (moto's http:// URL). */
  static async start(target: string): Promise<DynamoCallCounter> {
    const calls: DynamoCalls = {};
    const count = (req: IncomingMessage): void => {
      const operation = operationOf(req.headers['x-amz-target']);
      calls[operation] = (calls[operation] ?? 0) + 1;
    };
    return new DynamoCallCounter(await LoopbackProxy.start(target, { onRequest: count }), calls);
  }

  get url(): string {
    return this.proxy.url;
  }

  /** The calls so far, by operation (a copy). */
  snapshot(): DynamoCalls {
    return { ...this.calls };
  }

  close(): Promise<void> {
    return this.proxy.close();
  }
}
