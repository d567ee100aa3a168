// Builds the pinned command-line tools of harness/tools (helm, for charts/landlord) into the user
// cache, keyed by a hash of the pins, as binaries.ts does for the control plane. A module of its
// own, so that a helm pin change never rebuilds Kubernetes.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { goBuild, pinHash } from './binaries.js';
import { cacheRoot, toolsModule } from './paths.js';

const PIN_FILES = ['go.mod', 'go.sum', 'tools.go'];

/** The path of the pinned helm, building it first when the cache has none for these pins. */
export async function ensureHelm(log: (line: string) => void = console.error): Promise<string> {
  const dir = join(cacheRoot, 'tools', await pinHash(toolsModule, PIN_FILES));
  const helm = join(dir, 'helm');
  if (existsSync(helm)) return helm;
  log(`building helm into ${dir}; a cold build takes a few minutes and happens once per pin change`);
  const staging = `${dir}.tmp-${process.pid}`;
  await mkdir(staging, { recursive: true });
  try {
    // A module build has no release version stamped in; `helm version` would say only "v4.3".
    const version = /^require helm\.sh\/helm\/v4 (v\S+)$/m.exec(
      await readFile(join(toolsModule, 'go.mod'), 'utf8'),
    );
    const linkerSettings = version ? [`helm.sh/helm/v4/internal/version.version=${version[1]}`] : [];
    await goBuild(
      {
        module: toolsModule,
        packages: ['helm.sh/helm/v4/cmd/helm'],
        outDir: staging,
        what: 'helm',
        linkerSettings,
      },
      log,
    );
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return helm;
}
