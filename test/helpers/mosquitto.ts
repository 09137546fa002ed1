// A mosquitto broker of a test's own (Debian's /usr/sbin/mosquitto, never the system service): a free loopback port,
// a config file and password file in a temp folder, stopped (and startable again on the same port) by the test.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, tempDir, waitUntil } from './server.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';

export interface TestBroker {
  port: number;
  url: string;
  dir: string;
  /** Starts the broker again on the same port (after `stop`): nothing retained survives (no persistence). */
  start(): Promise<void>;
  stop(): Promise<void>;
  cleanup(): Promise<void>;
  logs(): string;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** A TLS listener's files (PEM paths). */
export interface BrokerTls {
  ca: string;
  cert: string;
  key: string;
}

/** `users`: name → password; with any, anonymous clients are refused. `tls`: the listener speaks TLS only. */
export async function startBroker(users: Record<string, string> = {}, tls: BrokerTls | null = null): Promise<TestBroker> {
  const dir = await tempDir('vjd-mqtt-');
  const port = await freePort();
  // `user`: run as root, mosquitto would switch to its own user, which cannot read the private temp folder.
  const lines = [
    `listener ${port} 127.0.0.1`,
    `user ${userInfo().username}`,
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
  ];
  if (tls) lines.push(`cafile ${tls.ca}`, `certfile ${tls.cert}`, `keyfile ${tls.key}`);
  const names = Object.keys(users);
  if (names.length > 0) {
    const passwd = join(dir, 'passwd');
    await writeFile(passwd, '');
    await chmod(passwd, 0o600);
    for (const name of names) await promisify(execFile)('mosquitto_passwd', ['-b', passwd, name, users[name]!]);
    lines.push('allow_anonymous false', `password_file ${passwd}`);
  } else lines.push('allow_anonymous true');
  const conf = join(dir, 'mosquitto.conf');
  await writeFile(conf, `${lines.join('\n')}\n`);
  let proc: ChildProcess | null = null;
  let out = '';
  const broker: TestBroker = {
    port,
    url: `${tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
    dir,
    logs: () => out,
    async start() {
      const p = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
      p.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      p.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      proc = p;
      await waitUntil(async () => {
        if (p.exitCode !== null) throw new Error(`mosquitto exited (${p.exitCode}):\n${out}`);
        return accepts(port);
      }, 20_000);
    },
    async stop() {
      const p = proc;
      proc = null;
      if (!p || p.exitCode !== null) return;
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGTERM');
      await exited;
    },
    async cleanup() {
      await broker.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await broker.start();
  return broker;
}
