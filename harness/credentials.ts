// The identities of a local control plane: static bearer tokens for the admin and each component
// (authenticated by kube-apiserver's token file), and the service-account signing key pair.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Identity {
  user: string;
  groups: string[];
  token: string;
}

export interface Credentials {
  admin: Identity;
  controllerManager: Identity;
  scheduler: Identity;
  kwok: Identity;
  tokenFile: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

function identity(user: string, groups: string[]): Identity {
  return { user, groups, token: randomBytes(24).toString('hex') };
}

export async function writeCredentials(dir: string): Promise<Credentials> {
  const ids = {
    admin: identity('landlord-e2e-admin', ['system:masters']),
    controllerManager: identity('system:kube-controller-manager', []),
    scheduler: identity('system:kube-scheduler', []),
    // kwok plays every kubelet; the test cluster gives it full rights rather than a node identity.
    kwok: identity('kwok', ['system:masters']),
  };
  const tokenFile = join(dir, 'tokens.csv');
  const lines = Object.values(ids).map((id, i) => `${id.token},${id.user},uid-${i},"${id.groups.join(',')}"`);
  await writeFile(tokenFile, lines.join('\n') + '\n', { mode: 0o600 });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const serviceAccountKey = join(dir, 'sa.key');
  const serviceAccountPub = join(dir, 'sa.pub');
  await writeFile(serviceAccountKey, privateKey, { mode: 0o600 });
  await writeFile(serviceAccountPub, publicKey);
  return { ...ids, tokenFile, serviceAccountKey, serviceAccountPub };
}
