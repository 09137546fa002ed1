// Gives headless-gl an X display: uses $DISPLAY when set, otherwise starts a private Xvfb (DESIGN.md section 1).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../log.js';
import { parentDeathPrefix } from '../shared/parent-death.js';

export interface Display {
  name: string;
  /** 'inherited' when $DISPLAY was set, 'xvfb' when vjd started its own server. */
  origin: 'inherited' | 'xvfb';
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

export async function ensureDisplay(log: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Display> {
  if (env.DISPLAY) return { name: env.DISPLAY, origin: 'inherited', stop: async () => {} };
  // -displayfd picks a free display number and writes it to fd 3 once the server accepts connections.
  // Under setpriv the X server also goes when vjd is SIGKILLed (the exit handler below covers the rest).
  const prefix = (await parentDeathPrefix('TERM')) ?? [];
  const command = [...prefix, 'Xvfb', '-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '640x480x24', '-noreset'];
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const name = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`Xvfb did not report a display within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    function fail(err: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    }
    child.once('error', (err) => fail(new Error(`cannot start Xvfb (${err.message}); install the xvfb package or set DISPLAY`)));
    child.once('exit', (code) => fail(new Error(`Xvfb exited with code ${code}: ${lastLine(stderr)}`)));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(`:${m[1]}`);
      }
    });
  });
  child.once('exit', (code, signal) => {
    if (!stopping) log.error({ code, signal, stderr: lastLine(stderr) }, 'Xvfb exited; rendering stops');
  });
  let stopping = false;
  // However vjd exits (even process.exit on a fatal error), its private X server goes with it.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  log.info({ display: name, pid: child.pid }, 'started Xvfb for headless rendering');
  return {
    name,
    origin: 'xvfb',
    stop: () => {
      process.removeListener('exit', killOnExit);
      return stopChild(child, () => (stopping = true));
    },
  };
}

function stopChild(child: ChildProcess, mark: () => void): Promise<void> {
  mark();
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
