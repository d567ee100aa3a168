// `npm run sandbox:row -- <command>`: edit the sandbox's table without an AWS CLI. Rows are given
// in the same JSON users put in DynamoDB (the DocumentClient form: plain strings, booleans).
import { readFile } from 'node:fs/promises';
import {
  type AttributeValue,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { readEnvFile } from '../harness/env-file.js';
import { SANDBOX_ENV } from './sandbox.js';
import { signup, waitForUrl } from './row-wait.js';
import { signupRow } from './rows.js';

const USAGE =
  "usage: npm run sandbox:row -- list | put '<row json>' | put-file <file> | set-deleted <name> | " +
  'set-state <name> <active|suspended|archived> | remove <name> | signup <name> | wait <name>';

async function client(): Promise<{ db: DynamoDBClient; table: string }> {
  const env = await readEnvFile(SANDBOX_ENV).catch(() => {
    throw new Error(`no sandbox is running (${SANDBOX_ENV} is missing): start one with npm start`);
  });
  const db = new DynamoDBClient({
    endpoint: env.DYNAMODB_ENDPOINT,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
  });
  return { db, table: env.DYNAMODB_TABLE! };
}

async function put(json: string): Promise<void> {
  const { db, table } = await client();
  const row = JSON.parse(json) as Record<string, unknown>;
  await db.send(
    new PutItemCommand({ TableName: table, Item: marshall(row, { removeUndefinedValues: true }) }),
  );
  console.log(`put ${String(row.name)}`);
}

/** One attribute of one row, with UpdateItem, as an admin panel would edit it. */
async function setAttribute(name: string, attribute: string, value: AttributeValue): Promise<void> {
  const { db, table } = await client();
  await db.send(
    new UpdateItemCommand({
      TableName: table,
      Key: { name: { S: name } },
      UpdateExpression: 'SET #a = :v',
      ExpressionAttributeNames: { '#a': attribute },
      ExpressionAttributeValues: { ':v': value },
    }),
  );
}

async function list(): Promise<void> {
  const { db, table } = await client();
  const { Items = [] } = await db.send(new ScanCommand({ TableName: table }));
  for (const item of Items) console.log(JSON.stringify(unmarshall(item)));
}

async function remove(name: string): Promise<void> {
  const { db, table } = await client();
  await db.send(new DeleteItemCommand({ TableName: table, Key: { name: { S: name } } }));
  console.log(`removed the row ${name}`);
}

/** Each command, given the words after it (missing ones as ''). */
const COMMANDS: Record<string, (arg: string, value: string) => Promise<void>> = {
  list,
  put: (json) => put(json),
  'put-file': async (file) => put(await readFile(file, 'utf8')),
  'set-deleted': async (name) => {
    await setAttribute(name, 'deleted', { BOOL: true });
    console.log(`marked ${name} deleted`);
  },
  'set-state': async (name, state) => {
    await setAttribute(name, 'state', { S: state });
    console.log(`set ${name} to state ${state}`);
  },
  remove,
  // A signup service's part: put the row, then read it until it says where the tenant is.
  signup: async (name) => {
    const { db, table } = await client();
    await signup(db, table, signupRow(name));
  },
  wait: async (name) => {
    const { db, table } = await client();
    const status = await waitForUrl(db, table, name);
    console.log(
      `${name} is ready${status.url === '' || status.url === undefined ? '' : ` at ${status.url}`}`,
    );
  },
};

async function run([command = '', arg = '', value = '']: string[]): Promise<void> {
  const action = COMMANDS[command];
  if (action === undefined) throw new Error(USAGE);
  await action(arg, value);
}

try {
  await run(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
