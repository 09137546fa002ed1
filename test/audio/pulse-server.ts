// A private PulseAudio server for capture tests: a user-mode daemon with its own runtime folder, no config files,
// anonymous access on its socket and one null sink whose monitor is a real capture source; `pactl` adds and
// removes sinks as plugging and unplugging a device would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir, waitUntil } from '../helpers/server.js';

export interface PulseServer {
  /** Environment that points libpulse clients (vjd's ffmpeg, pactl) at this server. */
  env: Record<string, string>;
  pactl(...args: string[]): Promise<string>;
  /** Plays a sine into `sink` until the returned process is killed (or the sink goes away). */
  tone(sink: string, hz: number): ChildProcess;
  stop(): Promise<void>;
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env: { ...process.env, ...env }, timeout: 15_000 }, (err, stdout, stderr) =>
      resolve({ ok: !err, out: `${stdout}${stderr}` }),
    );
  });
}

/** Why a PulseAudio server cannot run here, or null when the programs are installed. */
export async function pulseMissing(): Promise<string | null> {
  for (const prog of ['pulseaudio', 'pactl']) if (!(await run('which', [prog], {})).ok) return `${prog} is not installed`;
  return null;
}

export async function startPulse(sink: string): Promise<PulseServer> {
  const dir = await tempDir('vjd-pulse-');
  const runtime = join(dir, 'run');
  await mkdir(runtime, { recursive: true, mode: 0o700 });
  const env = { XDG_RUNTIME_DIR: runtime, PULSE_RUNTIME_PATH: join(runtime, 'pulse'), HOME: dir };
  const daemon = spawn(
    'pulseaudio',
    [
      '-n',
      '--daemonize=no',
      '--exit-idle-time=-1',
      '--use-pid-file=no',
      '--disable-shm=yes',
      '--log-target=stderr',
      '--load=module-native-protocol-unix auth-anonymous=1',
      `--load=module-null-sink sink_name=${sink}`,
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  daemon.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  const socket = join(env.PULSE_RUNTIME_PATH, 'native');
  try {
    await waitUntil(
      async () =>
        daemon.exitCode === null &&
        (await stat(socket).then(
          () => true,
          () => false,
        )),
      30_000,
    );
  } catch {
    daemon.kill('SIGKILL');
    throw new Error(`pulseaudio did not start: ${log}`);
  }
  return {
    env,
    async pactl(...args) {
      const r = await run('pactl', args, env);
      if (!r.ok) throw new Error(`pactl ${args.join(' ')}: ${r.out}`);
      return r.out;
    },
    tone(s, hz) {
      return spawn(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          `sine=frequency=${hz}:sample_rate=48000`,
          '-f',
          'pulse',
          '-device',
          s,
          'vjd-test-tone',
        ],
        { env: { ...process.env, ...env }, stdio: 'ignore' },
      );
    },
    async stop() {
      if (daemon.exitCode === null) {
        const gone = new Promise((r) => daemon.once('exit', r));
        daemon.kill('SIGTERM');
        await gone;
      }
    },
  };
}
