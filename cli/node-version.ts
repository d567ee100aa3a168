// The Node.js release landlord needs. undici 8 (under client-node and the AWS SDK's HTTP handler)
// needs 22.19; on an older release the first request dies deep inside undici with an error that
// names neither Node.js nor the version, so the bin checks before loading anything.
const REQUIRED_NODE = { major: 22, minor: 19 } as const;

/** The one-line problem with this release (e.g. "v20.20.2"), or undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  const [major, minor] = match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
  const { major: needMajor, minor: needMinor } = REQUIRED_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return (
    `needs Node.js ${needMajor}.${needMinor} or newer and found ${version}: ` +
    'install Node.js 24 (the release the image ships), or run the container image'
  );
}
