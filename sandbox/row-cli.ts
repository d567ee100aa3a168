// `npm run sandbox:row -- <command>`: edit the sandbox's table without an AWS CLI. Rows are given
// in the same JSON users put in DynamoDB (the DocumentClient form: plain strings, booleans).
import { readFile } from 'node:fs/promises';
import {
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { readEnvFile } from '../harness/env-file.js';
import { SANDBOX_ENV } from './sandbox.js';

const USAGE = `usage: npm run sandbox:row -- list | put '<row json>' | put-file <file> | set-deleted <name> | remove <name>`;

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

async function run(command: string | undefined, arg: string | undefined): Promise<void> {
  const { db, table } = await client();
  const key = { name: { S: arg ?? '' } };
  switch (command) {
    case 'list': {
      const { Items = [] } = await db.send(new ScanCommand({ TableName: table }));
      for (const item of Items) console.log(JSON.stringify(unmarshall(item)));
      return;
    }
    case 'put':
      return put(arg ?? '');
    case 'put-file':
      return put(await readFile(arg ?? '', 'utf8'));
    case 'set-deleted':
      await db.send(
        new UpdateItemCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'SET deleted = :t',
          ExpressionAttributeValues: { ':t': { BOOL: true } },
        }),
      );
      console.log(`marked ${arg} deleted`);
      return;
    case 'remove':
      await db.send(new DeleteItemCommand({ TableName: table, Key: key }));
      console.log(`removed the row ${arg}`);
      return;
    default:
      throw new Error(USAGE);
  }
}

try {
  await run(process.argv[2], process.argv[3]);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
