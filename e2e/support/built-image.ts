// The image as `npm run image` builds it (harness/image/), opened as a buildah working container:
// its configuration, its files, and two ways to run it, both as its user on the host's network:
// `buildah run` (buildah's chroot isolation, the image's entrypoint, user, working directory and
// environment), and a read-only root for the components, which buildah run cannot give: the
// container's files are bind-mounted read-only in a mount namespace of their own, with /proc,
// /dev and one read-only directory of the test's files (kubeconfig, credentials) at /mnt.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { buildah, buildahArgs, ensureHostPackages } from '../../harness/image/buildah.js';
import { ensureImage, type BuiltImage } from '../../harness/image/build.js';

const run = promisify(execFile);

/** The OCI configuration fields a runtime reads. */
export interface ImageConfig {
  User?: string;
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
}

export interface OpenedImage {
  image: BuiltImage;
  config: ImageConfig;
  /** The buildah working container of the image. */
  container: string;
  /** Its root filesystem on the host. */
  root: string;
}

/** Builds the image if this tree has none yet (minutes), then opens a working container of it. */
export async function openImage(log: (line: string) => void): Promise<OpenedImage> {
  await ensureHostPackages(log);
  const image = await ensureImage({ log });
  const inspected = JSON.parse(await buildah(['inspect', '--type', 'image', image.name])) as {
    OCIv1: { config: ImageConfig };
  };
  const container = await buildah(['from', '--pull=never', image.name]);
  const root = await buildah(['mount', container]);
  return { image, config: inspected.OCIv1.config, container, root };
}

export async function closeImage(opened: OpenedImage): Promise<void> {
  await buildah(['umount', opened.container]);
  await buildah(['rm', opened.container]);
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `buildah run` of a command in the container: chroot isolation, the host's network. */
export function buildahRun(opened: OpenedImage, argv: readonly string[]): Promise<RunResult> {
  const args = ['run', '--isolation', 'chroot', '--network', 'host', opened.container, '--', ...argv];
  const child = spawn('buildah', buildahArgs(args), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The image's ENTRYPOINT followed by these arguments, as a container runtime starts it. */
export const entrypointWith = (opened: OpenedImage, args: readonly string[]): string[] => [
  ...(opened.config.Entrypoint ?? []),
  ...args,
];

/** The image's numeric user and group (USER uid:gid, or uid alone). */
export function imageUserIds(opened: OpenedImage): { uid: number; gid: number } {
  const [uid = '', gid = uid] = (opened.config.User ?? '').split(':');
  if (!/^\d+$/.test(uid) || !/^\d+$/.test(gid)) throw new Error(`USER ${opened.config.User} is not numeric`);
  return { uid: Number(uid), gid: Number(gid) };
}

/** The image's ENV as an object. */
export function imageEnv(opened: OpenedImage): Record<string, string> {
  const pairs = (opened.config.Env ?? []).map((pair) => {
    const at = pair.indexOf('=');
    return [pair.slice(0, at), pair.slice(at + 1)] as const;
  });
  return Object.fromEntries(pairs);
}

/** Mounts the root read-only, then enters it as the image's user; "$@" is the command. */
const READ_ONLY_ROOT = `
root=$1 shared=$2 ids=$3 workdir=$4
shift 4
mount --bind "$root" "$root"
mount -o remount,bind,ro "$root"
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -o bind,ro "$shared" "$root/mnt"
exec unshare --root="$root" --wd="$workdir" --setgid="\${ids#*:}" --setuid="\${ids%%:*}" -- "$@"
`;

/**
 * The command that runs argv in the container with a read-only root, `shared` at /mnt. The mounts
 * live in the command's own mount namespace and go with it; the process it ends as keeps its pid,
 * so a signal sent to it reaches the component.
 */
export function readOnlyCommand(opened: OpenedImage, shared: string, argv: readonly string[]): string[] {
  const { uid, gid } = imageUserIds(opened);
  const workdir = opened.config.WorkingDir ?? '/';
  return [
    ...['/usr/bin/unshare', '--mount', '--propagation', 'private', '/bin/sh', '-ec', READ_ONLY_ROOT, 'sh'],
    ...[opened.root, shared, `${uid}:${gid}`, workdir, ...argv],
  ];
}

/** Runs argv to its end in the read-only container (for a probe: what a command may write). */
export async function runReadOnly(
  opened: OpenedImage,
  shared: string,
  argv: readonly string[],
): Promise<RunResult> {
  const [file = '', ...args] = readOnlyCommand(opened, shared, argv);
  return run(file, args, { env: imageEnv(opened) }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? null,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }),
  );
}
