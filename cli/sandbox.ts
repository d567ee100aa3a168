// `landlord sandbox` runs the local sandbox from a source checkout; the sandbox code (and the control
// plane it builds) is development tooling that the production image does not carry.
export async function runSandbox(): Promise<void> {
  let sandbox;
  try {
    sandbox = await import('../e2e/sandbox/sandbox.js');
  } catch (err) {
    throw new Error('the sandbox needs a source checkout: git clone …; npm ci && npm start', { cause: err });
  }
  await sandbox.runSandbox();
}
