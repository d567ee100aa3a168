// Builds the pinned command-line tools into the user cache, keyed by a hash of their pins, as
// binaries.ts does for the control plane: helm (harness/tools, for charts/landlord), Helm 3
// (harness/helm3, the same chart under the older major) and promtool
// (harness/promtool, for the alert rules in config/monitoring) and External Secrets Operator's
// controller (harness/external-secrets, the engine behind a class's externalSecret entries). Each is a Go module of its own, so
// that a pin change of one never rebuilds (or moves the dependencies of) another.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { goBuild, pinHash } from './binaries.js';
import { cacheRoot, externalSecretsModule, helm3Module, promtoolModule, toolsModule } from './paths.js';

const run = promisify(execFile);

const PIN_FILES = ['go.mod', 'go.sum', 'tools.go'];

interface Tool {
  /** The binary's name, and what the progress lines call it. */
  name: string;
  /** The Go module (a folder of harness/) whose pins build it. */
  module: string;
  package: string;
  /** How long a cold build takes on two cores, for the line that says one has started. */
  coldBuild: string;
  /** `-X` settings for the version a release build would stamp (a module build has none). */
  linkerSettings: (module: string) => Promise<string[]>;
}

/** A Helm major version's tool: the same build, its own module, binary name and version stamp. */
function helmTool(major: 3 | 4, name: string, module: string): Tool {
  const path = `helm.sh/helm/v${major}`;
  return {
    name,
    module,
    package: `${path}/cmd/helm`,
    coldBuild: 'a few minutes',
    // Without it `helm version` would say only "v4.3".
    linkerSettings: async (dir) => {
      const pin = new RegExp(`^require ${path.replaceAll('.', '\\.')} (v\\S+)$`, 'm');
      const version = pin.exec(await readFile(join(dir, 'go.mod'), 'utf8'));
      return version ? [`${path}/internal/version.version=${version[1]}`] : [];
    },
  };
}

const HELM = helmTool(4, 'helm', toolsModule);
/** Helm 3, to show the chart works with both majors (charts/landlord is a v2 chart). */
const HELM3 = helmTool(3, 'helm3', helm3Module);

const PROMTOOL: Tool = {
  name: 'promtool',
  module: promtoolModule,
  package: 'github.com/prometheus/prometheus/cmd/promtool',
  coldBuild: 'about 7 minutes',
  // Prometheus 3.x is tagged v0.3xx.y as a Go module; its VERSION file has the release (3.xx.y),
  // which `promtool --version` would otherwise print as empty.
  linkerSettings: async (module) => {
    const { stdout } = await run('go', ['list', '-m', '-f', '{{.Dir}}', 'github.com/prometheus/prometheus'], {
      cwd: module,
    });
    const version = (await readFile(join(stdout.trim(), 'VERSION'), 'utf8')).trim();
    return [`github.com/prometheus/common/version.Version=${version}`];
  },
};

const EXTERNAL_SECRETS: Tool = {
  name: 'external-secrets',
  module: externalSecretsModule,
  // The module's main package is its controller command (every provider compiled in).
  package: 'github.com/external-secrets/external-secrets',
  coldBuild: 'about 9 minutes',
  linkerSettings: () => Promise.resolve([]),
};

/** The path of the pinned helm, building it first when the cache has none for these pins. */
export function ensureHelm(log: (line: string) => void = console.error): Promise<string> {
  return ensureTool(HELM, log);
}

/** The path of the pinned Helm 3, building it first when the cache has none for these pins. */
export function ensureHelm3(log: (line: string) => void = console.error): Promise<string> {
  return ensureTool(HELM3, log);
}

/** The path of the pinned promtool, building it first when the cache has none for these pins. */
export function ensurePromtool(log: (line: string) => void = console.error): Promise<string> {
  return ensureTool(PROMTOOL, log);
}

/** The path of the pinned ESO controller, building it first when the cache has none for these pins. */
export function ensureExternalSecrets(log: (line: string) => void = console.error): Promise<string> {
  return ensureTool(EXTERNAL_SECRETS, log);
}

async function ensureTool(tool: Tool, log: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot, 'tools', await pinHash(tool.module, PIN_FILES));
  const binary = join(dir, tool.name);
  if (existsSync(binary)) return binary;
  log(
    `building ${tool.name} into ${dir}; a cold build takes ${tool.coldBuild} and happens once per pin change`,
  );
  const staging = `${dir}.tmp-${process.pid}`;
  await mkdir(staging, { recursive: true });
  try {
    await goBuild(
      {
        module: tool.module,
        packages: [tool.package],
        outDir: staging,
        what: tool.name,
        linkerSettings: await tool.linkerSettings(tool.module),
      },
      log,
    );
    // go build names the binary after its package folder: Helm 3's is `helm` too.
    const built = tool.package.slice(tool.package.lastIndexOf('/') + 1);
    if (built !== tool.name) await rename(join(staging, built), join(staging, tool.name));
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}
