// Test harness: starts the real built server (dist/src/cli.js serve) on a free port with a temp data dir
// and config, waits for it, talks HTTP to it, and stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, connect as connectSocket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'src', 'cli.js');
/**
 * Where the hardening suites write their figures: the ignored `.tmp/results` on an ordinary run, so `npm test` leaves
 * the tree clean; `bench/results` (the figures docs/operations.md and docs/performance.md quote) with
 * `VJD_RECORD_RESULTS=1` (`npm run test:record`).
 */
export const RESULTS_DIR = process.env.VJD_RECORD_RESULTS === '1' ? join(ROOT, 'bench', 'results') : join(ROOT, '.tmp', 'results');

export interface StartOptions {
  /** Config file content (merged over a test default with a free port); null = no config file. */
  config?: Record<string, unknown> | null;
  /** `community` (default) activates a community license first; `none` leaves the data dir without one. */
  license?: 'community' | 'none';
  env?: Record<string, string>;
  args?: string[];
  /** `running` (default) waits for GET /status; `log:<text>` waits for a log line containing text. */
  waitFor?: 'running' | `log:${string}`;
  dataDir?: string;
  /** Put dataDir in the config file instead of passing --data-dir (so a file edit can change it). */
  dataDirInConfig?: boolean;
  port?: number;
  /** The cli.js to run (a benchmark's baseline build); default: this checkout's. */
  cli?: string;
}

export interface TestServer {
  port: number;
  base: string;
  dataDir: string;
  configFile: string | null;
  proc: ChildProcess;
  logs(): string;
  waitForLog(text: string, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  cleanup(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function tempDir(prefix = 'vjd-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// A community license names no machine or folder, so one activation through the real CLI serves every server: the
// test runner makes it once per run (VJD_TEST_COMMUNITY_LICENSE); a file run on its own activates at its first start.
// Either way later starts copy the file, which saves a Node start per server.
let communityLicense: string | null = null;
async function activateCommunity(dataDir: string): Promise<void> {
  const shared = process.env.VJD_TEST_COMMUNITY_LICENSE;
  if (communityLicense === null && shared) communityLicense = await readFile(shared, 'utf8');
  if (communityLicense !== null) return writeFile(join(dataDir, 'license.json'), communityLicense);
  const r = await runCli(['license', 'activate', '--community', '--data-dir', dataDir]);
  if (r.code !== 0) throw new Error(`license activation failed: ${r.stderr}`);
  communityLicense = await readFile(join(dataDir, 'license.json'), 'utf8');
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (await tempDir());
  const port = opts.port ?? (await freePort());
  let configFile: string | null = null;
  const args = ['serve'];
  if (!opts.dataDirInConfig) args.push('--data-dir', dataDir);
  // An existing (empty) default media folder keeps the first-run demo media generation out of tests that do not want it.
  await mkdir(join(dataDir, 'media'), { recursive: true });
  if (opts.config !== null) {
    const cfg = { ...(opts.config ?? {}) } as Record<string, unknown>;
    // Small frames keep several servers per test file cheap on a 2-core machine.
    cfg.render ??= { width: 320, height: 180, fps: 30 };
    // Tests start from an empty program unless they ask for the first-run source themselves.
    cfg.sources = { firstRun: null, ...((cfg.sources as object | undefined) ?? {}) };
    // No audio ffmpeg unless a test selects an input itself.
    cfg.audio = { input: null, ...((cfg.audio as object | undefined) ?? {}) };
    if (opts.dataDirInConfig) cfg.dataDir = dataDir;
    cfg.server = { host: '127.0.0.1', port, ...((cfg.server as object | undefined) ?? {}) };
    configFile = join(dataDir, 'config.json');
    await writeFile(configFile, JSON.stringify(cfg, null, 2));
    args.push('--config', configFile);
  } else {
    args.push('--port', String(port));
  }
  if ((opts.license ?? 'community') === 'community') await activateCommunity(dataDir);
  args.push(...(opts.args ?? []));
  // The server starts its own Xvfb (the production path) unless a test passes DISPLAY explicitly.
  const { DISPLAY: _display, ...inherited } = process.env;
  const proc = spawn(process.execPath, [opts.cli ?? CLI, ...args], {
    env: { ...inherited, VJD_LOG_LEVEL: 'debug', VJD_TEST_HOOKS: '1', ...(opts.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (c: Buffer): void => {
    out += c.toString();
    for (const w of waiters.splice(0)) w();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let exited = false;
  let exitCode: number | null = null;
  const exitPromise = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      exited = true;
      exitCode = code;
      for (const w of waiters.splice(0)) w();
      resolve(code);
    }),
  );

  // A guard against a hang, not a speed check: a start on a loaded 2-core box can take many seconds.
  const waitForLog = async (text: string, timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (exited) throw new Error(`server exited (${exitCode}) before logging ${JSON.stringify(text)}:\n${out}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for log ${JSON.stringify(text)}:\n${out}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, 200);
        waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  };

  const server: TestServer = {
    port,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    configFile,
    proc,
    logs: () => out,
    waitForLog,
    async stop(signal = 'SIGTERM') {
      if (exited) return exitCode;
      proc.kill(signal);
      const t = setTimeout(() => proc.kill('SIGKILL'), 8000);
      const code = await exitPromise;
      clearTimeout(t);
      return code;
    },
    async cleanup() {
      await server.stop();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };

  const waitFor = opts.waitFor ?? 'running';
  try {
    if (waitFor === 'running')
      await waitForHttp(
        server,
        90_000,
        () => exited,
        () => out,
      );
    else await waitForLog(waitFor.slice(4));
  } catch (err) {
    await server.stop('SIGKILL');
    throw err;
  }
  return server;
}

async function waitForHttp(s: TestServer, timeoutMs: number, exited: () => boolean, out: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`server exited before answering:\n${out()}`);
    try {
      const r = await req('GET', `${s.base}/api/v1/status`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within ${timeoutMs} ms:\n${out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Buffer;
  json(): any;
}

/** Plain HTTP request without connection reuse; body objects are sent as JSON, strings/Buffers as-is. */
export function req(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<Res> {
  return new Promise((resolve, reject) => {
    let payload: Buffer | undefined;
    if (opts.body !== undefined) {
      payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
    }
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (payload && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const r = httpRequest(url, { method, headers, agent: false, timeout: opts.timeoutMs ?? 10000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`timeout ${method} ${url}`)));
    r.on('error', reject);
    if (payload) r.end(payload);
    else r.end();
  });
}

export async function waitUntil(cond: () => Promise<boolean> | boolean, timeoutMs = 10000, stepMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** True when nothing listens on the port (the connection is refused). */
export function refused(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connectSocket(port, host);
    sock.on('connect', () => {
      sock.destroy();
      resolve(false);
    });
    sock.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

/** Rewrites the server's config file the way editors do (a temp file renamed over it), after `change`. */
export async function editConfig(s: TestServer, change: (c: any) => void): Promise<void> {
  const c = JSON.parse(await readFile(s.configFile!, 'utf8'));
  change(c);
  const tmp = `${s.configFile}.tmp`;
  await writeFile(tmp, JSON.stringify(c, null, 2));
  await rename(tmp, s.configFile!);
}

/** Output pixels (RGBA 0-255) at normalized points, through the test-only sample route. */
export async function sampleOutput(base: string, points: Array<[number, number]> = [[0.5, 0.5]]): Promise<number[][]> {
  const r = await req('POST', `${base}/api/v1/_test/sample`, { body: { points }, timeoutMs: 20000 });
  if (r.status !== 200) throw new Error(`sample answered ${r.status}: ${r.text}`);
  return r.json().pixels;
}

/**
 * `req`, asked again (up to three more times) when the answer is 504 ACTIVATION_TIMEOUT: on a loaded box a clip's
 * first frame can miss the 5 s budget, and the previous source keeps driving, so a client simply asks again.
 */
export async function patientReq(method: string, url: string, opts: Parameters<typeof req>[2] = {}): Promise<Res> {
  for (let tries = 1; ; tries++) {
    const r = await req(method, url, opts);
    if (r.status !== 504 || tries > 3 || !r.text.includes('ACTIVATION_TIMEOUT')) return r;
  }
}
