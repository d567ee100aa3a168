// PostgreSQL and MariaDB for the databases e2e tests, from Debian's packages (`apt-get install
// postgresql mariadb-server`; .ci/run installs them), each started like moto: a data directory of
// its own made for the run, a free loopback port, never the system service. Neither server runs as
// root (PostgreSQL refuses to), so as root each runs as its package's user (postgres, mysql) through
// setpriv, which execs the server itself: the harness's SIGTERM reaches it, not a wrapper.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect } from 'node:net';
import { freePort } from './ports.js';
import { assertRunning, ProcessGroup } from './process-group.js';
import { waitUntil } from './wait.js';

const run = promisify(execFile);

/** What a test needs to reach each server as its superuser; empty where the server is not installed. */
export interface DatabaseEnv {
  POSTGRES_ENDPOINT: string;
  POSTGRES_SUPERUSER: string;
  POSTGRES_PASSWORD: string;
  MARIADB_ENDPOINT: string;
  MARIADB_SUPERUSER: string;
  MARIADB_PASSWORD: string;
}

const EMPTY_ENV: DatabaseEnv = {
  POSTGRES_ENDPOINT: '',
  POSTGRES_SUPERUSER: '',
  POSTGRES_PASSWORD: '',
  MARIADB_ENDPOINT: '',
  MARIADB_SUPERUSER: '',
  MARIADB_PASSWORD: '',
};

type Server = 'postgres' | 'mariadb';

/** The newest PostgreSQL the packages installed (/usr/lib/postgresql/<major>/bin), if any. */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

const MARIADB = { server: '/usr/sbin/mariadbd', installDb: '/usr/bin/mariadb-install-db' };

/** As root, the command runs as `user` (its package's); otherwise as whoever runs the tests. */
function asUser(user: string, command: string, args: string[]): [string, string[]] {
  if (userInfo().uid !== 0) return [command, args];
  return ['setpriv', [`--reuid=${user}`, `--regid=${user}`, '--init-groups', '--', command, ...args]];
}

/** A directory the server's user owns, outside the run dir (which only root may enter). */
async function dataDir(prefix: string, user: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', user]);
    const { stdout: gid } = await run('id', ['-g', user]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  return dir;
}

const tcpOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export class DatabaseServers {
  private readonly processes: ProcessGroup<Server>;
  private readonly dirs: string[] = [];
  private env: DatabaseEnv = { ...EMPTY_ENV };

  constructor(
    logDir: string,
    private readonly log: (line: string) => void,
  ) {
    this.processes = new ProcessGroup(logDir, log);
  }

  get endpoints(): DatabaseEnv {
    return this.env;
  }

  /** Starts whichever of `which` is installed (default both); says which is not. */
  async start(which: readonly Server[] = ['postgres', 'mariadb']): Promise<void> {
    await Promise.all([
      which.includes('postgres') ? this.startPostgres() : undefined,
      which.includes('mariadb') ? this.startMariadb() : undefined,
    ]);
  }

  private async startPostgres(): Promise<void> {
    const bin = postgresBin();
    if (bin === undefined) {
      this.log('PostgreSQL is not installed (apt-get install -y postgresql): databases e2e tests will fail');
      return;
    }
    const dir = await dataDir('landlord-pg-', 'postgres');
    this.dirs.push(dir);
    const password = randomBytes(12).toString('hex');
    const pwfile = join(dir, 'pwfile');
    await writeFile(pwfile, `${password}\n`);
    if (userInfo().uid === 0) await run('chown', ['postgres', pwfile]);
    const data = join(dir, 'data');
    const [initdb, initArgs] = asUser('postgres', join(bin, 'initdb'), [
      ...['-D', data, '-U', 'postgres', `--pwfile=${pwfile}`],
      ...['--auth-local=trust', '--auth-host=scram-sha-256', '--encoding=UTF8', '--no-sync'],
    ]);
    await run(initdb, initArgs, { maxBuffer: 8 * 1024 * 1024 });
    const port = await freePort();
    const [command, args] = asUser('postgres', join(bin, 'postgres'), [
      ...['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ]);
    const proc = this.processes.spawn('postgres', command, args);
    await waitUntil('postgres', () => tcpOpen(port), {
      timeoutMs: 60_000,
      abortIf: () => assertRunning(proc),
    });
    this.env.POSTGRES_ENDPOINT = `127.0.0.1:${port}`;
    this.env.POSTGRES_SUPERUSER = 'postgres';
    this.env.POSTGRES_PASSWORD = password;
  }

  private async startMariadb(): Promise<void> {
    if (!existsSync(MARIADB.server) || !existsSync(MARIADB.installDb)) {
      this.log('MariaDB is not installed (apt-get install -y mariadb-server): databases e2e tests will fail');
      return;
    }
    const dir = await dataDir('landlord-mariadb-', 'mysql');
    this.dirs.push(dir);
    const data = join(dir, 'data');
    // Its own temporary directory, not /tmp, which every other run on the machine shares.
    const tmp = join(dir, 'tmp');
    await mkdir(tmp);
    if (userInfo().uid === 0) await run('chown', ['mysql:mysql', tmp]);
    const user = userInfo().uid === 0 ? 'mysql' : userInfo().username;
    await this.installMariadb(data, tmp, user);
    // The superuser the tests connect as over TCP, made at every start (the init file is idempotent).
    const password = randomBytes(12).toString('hex');
    const init = join(dir, 'init.sql');
    await writeFile(
      init,
      `CREATE USER IF NOT EXISTS 'e2e_root'@'%' IDENTIFIED BY '${password}';\n` +
        `GRANT ALL PRIVILEGES ON *.* TO 'e2e_root'@'%' WITH GRANT OPTION;\n`,
    );
    const port = await freePort();
    const [command, args] = asUser('mysql', MARIADB.server, [
      ...['--no-defaults', `--datadir=${data}`, `--port=${port}`, '--bind-address=127.0.0.1'],
      ...[
        `--socket=${join(dir, 'mysqld.sock')}`,
        `--pid-file=${join(dir, 'mysqld.pid')}`,
        `--init-file=${init}`,
      ],
      ...['--skip-name-resolve', '--innodb-flush-log-at-trx-commit=0', '--skip-log-bin', `--user=${user}`],
      `--tmpdir=${tmp}`,
    ]);
    const proc = this.processes.spawn('mariadb', command, args);
    await waitUntil('mariadb', () => tcpOpen(port), {
      timeoutMs: 60_000,
      abortIf: () => assertRunning(proc),
    });
    this.env.MARIADB_ENDPOINT = `127.0.0.1:${port}`;
    this.env.MARIADB_SUPERUSER = 'e2e_root';
    this.env.MARIADB_PASSWORD = password;
  }

  /**
   * Makes the system tables. Once seen failing half-way on a loaded machine (a bootstrap temporary
   * table it could not remove): a failed bootstrap leaves a data directory that cannot be used, so
   * it is emptied and the bootstrap run once more, with the first failure logged.
   */
  private async installMariadb(data: string, tmp: string, user: string): Promise<void> {
    const [install, installArgs] = asUser('mysql', MARIADB.installDb, [
      ...['--no-defaults', `--datadir=${data}`, `--user=${user}`, `--tmpdir=${tmp}`],
      ...['--auth-root-authentication-method=normal', '--skip-test-db'],
    ]);
    try {
      await run(install, installArgs, { maxBuffer: 8 * 1024 * 1024 });
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr ?? String(err);
      this.log(`mariadb-install-db failed; trying once more with an empty data directory: ${stderr.trim()}`);
      await rm(data, { recursive: true, force: true });
      await run(install, installArgs, { maxBuffer: 8 * 1024 * 1024 });
    }
  }

  async stop(): Promise<void> {
    await this.processes.stopAll(['postgres', 'mariadb']);
    if (process.env.LANDLORD_E2E_KEEP !== '1')
      await Promise.all(this.dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
