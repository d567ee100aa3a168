// What a signup service does with landlord, with no Kubernetes credentials: put the tenant's row,
// then read the row until sync says the tenant is ready, and take its URL from there (the row's
// `landlord` attribute, docs/rows.md). A PutItem replaces the whole item, so any `landlord` of an
// earlier row of that name goes with it: whatever is read after is about this row.
import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Row } from './rows.js';

/** How often the row is read: an eventually consistent GetItem of one attribute, half a read unit. */
const POLL_MS = 1_000;
const TIMEOUT_MS = 180_000;

interface Told {
  phase?: string;
  ready?: boolean;
  url?: string;
  message?: string;
  observedHash?: string;
  updatedAt?: string;
}

async function told(db: DynamoDBClient, table: string, name: string): Promise<Told | undefined> {
  const { Item } = await db.send(
    new GetItemCommand({
      TableName: table,
      Key: { name: { S: name } },
      ProjectionExpression: '#landlord',
      ExpressionAttributeNames: { '#landlord': 'landlord' },
    }),
  );
  const landlord: unknown = Item === undefined ? undefined : unmarshall(Item).landlord;
  return typeof landlord === 'object' && landlord !== null ? landlord : undefined;
}

/** Reads the row until it says ready; prints each phase it passes through, then the URL. */
export async function waitForUrl(db: DynamoDBClient, table: string, name: string): Promise<Told> {
  const deadline = Date.now() + TIMEOUT_MS;
  let said = '';
  for (;;) {
    const status = await told(db, table, name);
    const line = status === undefined ? 'nothing yet' : `${status.phase ?? '?'}: ${status.message ?? ''}`;
    if (line !== said) console.log(`  ${name}: ${line}`);
    said = line;
    if (status?.ready === true) return status;
    if (Date.now() > deadline) throw new Error(`${name} is not ready after ${TIMEOUT_MS / 1000} s (${line})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Puts the row and waits for the tenant's URL, as a signup service would. */
export async function signup(db: DynamoDBClient, table: string, row: Row): Promise<void> {
  const name = row.name?.S ?? '';
  await db.send(new PutItemCommand({ TableName: table, Item: row }));
  console.log(`put ${name}; reading its row until landlord says it is ready…`);
  const status = await waitForUrl(db, table, name);
  console.log(
    status.url === '' ? `${name} is ready (its class exposes no URL)` : `${name} is ready at ${status.url}`,
  );
}
