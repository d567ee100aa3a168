// `npm start`: runs the sandbox from a source checkout. The sandbox starts a local control plane
// built by the harness, so it is development tooling: the image and `landlord` do not carry it.
import { runSandbox } from './sandbox.js';

try {
  await runSandbox();
} catch (err) {
  process.stderr.write(
    `landlord sandbox: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
}
