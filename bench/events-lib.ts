// What the event benchmarks share: a vjd started from this build with OSC on and room for 600 event clients, and a
// keep-alive POST /global/dimmer (the mutation both measure).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { freePort, runCli, tempDir, ROOT, sleep } from '../test/helpers/server.js';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export function post(port: number, value: number): Promise<number> {
  const body = JSON.stringify({ value });
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1/global/dimmer',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

/**
 * A vjd from the build at `root` (this checkout by default; a benchmark's baseline passes another). A baseline
 * older than `sources.firstRun` and `audio` refuses those keys, so they are left out there (it has neither).
 */
export async function start(root = ROOT): Promise<{ proc: ChildProcess; port: number; oscPort: number; dataDir: string }> {
  const dataDir = await tempDir('vjd-bench-events-');
  await mkdir(join(dataDir, 'media'));
  const port = await freePort();
  const oscPort = await freePort();
  const config = join(dataDir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      render: { width: 320, height: 180, fps: 30 },
      server: { port, maxEventClients: 600 },
      osc: { enabled: true, host: '127.0.0.1', port: oscPort },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      ...(root === ROOT ? { sources: { firstRun: null }, audio: { input: null } } : {}),
    }),
  );
  const lic = await runCli(['license', 'activate', '--community', '--data-dir', dataDir]);
  if (lic.code !== 0) throw new Error(lic.stderr);
  const { DISPLAY: _d, ...env } = process.env;
  const proc = spawn(process.execPath, [join(root, 'dist', 'src', 'cli.js'), 'serve', '--config', config, '--data-dir', dataDir], {
    env: { ...env, VJD_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await post(port, 1)) === 200) return { proc, port, oscPort, dataDir };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error('server did not start');
}
