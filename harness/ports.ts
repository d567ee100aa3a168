// Free loopback ports for the servers the harness starts.
//
// Ports come from below the kernel's ephemeral range (32768 and up on Linux), so an outgoing
// connection can never take a port between the moment it is picked and the moment its server
// binds it. e2e files run side by side, each against the control plane whose slot it claimed
// (harness/e2e-slots.ts sets LANDLORD_PORT_BAND to it; the main process, which starts the shared
// control planes, is band 0): two files never race for one port, and within a process a port is
// never handed out twice.
import { createServer } from 'node:net';

const FIRST_PORT = 12_000;
const BAND_WIDTH = 2_000;
const BANDS = 10;
const ATTEMPTS = 200;

const handedOut = new Set<number>();

function band(): number {
  const claimed = Number(process.env.LANDLORD_PORT_BAND ?? 0);
  return Number.isInteger(claimed) && claimed > 0 ? claimed % BANDS : 0;
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now, that this process has not handed out before. */
export async function freePort(): Promise<number> {
  const start = FIRST_PORT + band() * BAND_WIDTH;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = start + Math.floor(Math.random() * BAND_WIDTH);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free loopback port in ${start}-${start + BAND_WIDTH - 1} after ${ATTEMPTS} attempts`);
}
