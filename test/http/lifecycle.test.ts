// Process lifecycle: config errors name the key and file, live settings apply without restart,
// SIGTERM drains and persists, state survives a restart, network addresses for non-loopback binds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { startServer, req, runCli, freePort, tempDir, waitUntil, sleep, CLI, refused, editConfig } from '../helpers/server.js';
import { spawn } from 'node:child_process';

async function statusOn(port: number): Promise<any | null> {
  try {
    const r = await req('GET', `http://127.0.0.1:${port}/api/v1/status`, { timeoutMs: 1000 });
    return r.status === 200 ? r.json() : null;
  } catch {
    return null;
  }
}

function runServe(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const t = setTimeout(() => p.kill('SIGKILL'), 10000);
    p.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

test('config errors stop the start and name the key and the file', async () => {
  const dir = await tempDir();
  const file = join(dir, 'bad.json');
  await writeFile(file, JSON.stringify({ server: { port: 80 } }));
  let r = await runServe(['--config', file, '--data-dir', dir]);
  assert.is(r.code, 2);
  assert.match(r.out, /server\.port/);
  assert.ok(r.out.includes(file));
  await writeFile(file, JSON.stringify({ server: { prot: 9000 } }));
  r = await runServe(['--config', file, '--data-dir', dir]);
  assert.is(r.code, 2);
  assert.match(r.out, /server\.prot/);
  r = await runServe(['--port', '70000', '--data-dir', dir]);
  assert.is(r.code, 2);
  assert.match(r.out, /--port/);
});

test('flags beat env beat file', async () => {
  const portFile = await freePort();
  const portEnv = await freePort();
  const portFlag = await freePort();
  const s = await startServer({
    config: { server: { port: portFile } },
    env: { VJD_PORT: String(portEnv) },
    args: ['--port', String(portFlag)],
    port: portFlag,
  });
  try {
    assert.ok(await statusOn(portFlag));
    assert.ok(await refused(portFile));
    assert.ok(await refused(portEnv));
  } finally {
    await s.cleanup();
  }
});

test('port, enable switch and API key apply without a restart', async () => {
  const s = await startServer();
  try {
    const newPort = await freePort();
    await editConfig(s, (c) => (c.server.port = newPort));
    await waitUntil(async () => (await statusOn(newPort)) !== null, 10000);
    await waitUntil(() => refused(s.port), 5000);

    await editConfig(s, (c) => (c.server.enabled = false));
    await waitUntil(() => refused(newPort), 10000);
    await s.waitForLog('Server Disabled');
    let st = await runCli(['status', '--data-dir', s.dataDir, '--config', s.configFile!]);
    await waitUntil(async () => (st = await runCli(['status', '--data-dir', s.dataDir, '--config', s.configFile!])).code === 3, 5000);
    assert.match(st.stdout, /Server Disabled \(server\.enabled is false\)/);

    await editConfig(s, (c) => {
      c.server.enabled = true;
      c.server.apiKey = 'live-key-123456';
    });
    await waitUntil(async () => (await statusOn(newPort)) !== null, 10000);
    const denied = await req('GET', `http://127.0.0.1:${newPort}/api/v1/capabilities`);
    assert.is(denied.status, 401);
    const allowed = await req('GET', `http://127.0.0.1:${newPort}/api/v1/capabilities`, { headers: { 'x-api-key': 'live-key-123456' } });
    assert.is(allowed.status, 200);

    // An invalid edit keeps the last good config and says why.
    await writeFile(s.configFile!, '{ "server": { "port": ');
    await s.waitForLog('keeping the last good config');
    assert.ok(await statusOn(newPort));
    await editConfig(s, () => undefined).catch(() => undefined);
  } finally {
    await s.cleanup();
  }
  assert.not.ok(s.logs().includes('live-key-123456'));
});

test('a dataDir edit waits for a restart: the running license and state stay where they are', async () => {
  const s = await startServer({ dataDirInConfig: true });
  try {
    const other = await tempDir();
    await editConfig(s, (c) => (c.dataDir = other));
    await s.waitForLog('take effect at the next restart');
    await sleep(1200); // two license polls: a license path moved into the new (empty) dir would close the port
    assert.ok(await statusOn(s.port), 'still serving on the original license');
    assert.not.match(s.logs(), /no license file at/);
    await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.7 } });
    await s.stop();
    const saved = JSON.parse(await readFile(join(s.dataDir, 'state.json'), 'utf8'));
    assert.is(saved.dimmer, 0.7, 'state written to the running data dir');
  } finally {
    await s.cleanup();
  }
});

test('a port held by another process: Server Starting with the reason, then Running once free', async () => {
  const { createServer } = await import('node:net');
  const port = await freePort();
  // Another program holding the port: it accepts connections (and drains them) but speaks no HTTP.
  const blocker = createServer((c) => c.on('error', () => undefined).resume());
  await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
  const s = await startServer({ port, waitFor: 'log:address already in use' });
  try {
    const st = await runCli(['status', '--json', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.is(JSON.parse(st.stdout).state, 'Server Starting');
    await new Promise<void>((r) => blocker.close(() => r()));
    await waitUntil(async () => (await statusOn(port)) !== null, 15000);
  } finally {
    await s.cleanup();
  }
});

test('SIGTERM exits 0 quickly, persists state, and a restart restores it', async () => {
  const dataDir = await tempDir();
  let s = await startServer({ dataDir });
  await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.3 } });
  await req('POST', `${s.base}/api/v1/global/blackout`, { body: { enabled: true } });
  const t0 = Date.now();
  const code = await s.stop('SIGTERM');
  assert.is(code, 0);
  assert.ok(Date.now() - t0 < 5000, 'exit within 5 s');
  assert.match(s.logs(), /"msg":"stopped"/);
  const saved = JSON.parse(await readFile(join(dataDir, 'state.json'), 'utf8'));
  assert.is(saved.dimmer, 0.3);
  assert.is(saved.blackout, true);
  await assert.not.ok(
    await readFile(join(dataDir, 'run', 'status.json')).then(
      () => true,
      () => false,
    ),
    'status file removed',
  );
  s = await startServer({ dataDir, license: 'none' });
  try {
    assert.equal((await req('GET', `${s.base}/api/v1/global`)).json(), { blackout: true, dimmer: 0.3 });
  } finally {
    await s.stop();
  }
});

test('SIGINT also shuts down cleanly', async () => {
  const s = await startServer();
  const code = await s.stop('SIGINT');
  assert.is(code, 0);
  await s.cleanup();
});

test('bound to 0.0.0.0: /status and the log list the addresses other devices can use', async () => {
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && a.family === 'IPv4');
  const s = await startServer({ config: { server: { host: '0.0.0.0' } } });
  try {
    const b = await statusOn(s.port);
    assert.is(b.server.host, '0.0.0.0');
    assert.equal(b.server.addresses.map((a: any) => a.address).sort(), external.map((a) => a!.address).sort());
    for (const a of b.server.addresses) assert.is(a.url, `http://${a.address}:${s.port}/api/v1`);
    if (external.length > 0) await s.waitForLog('reachable from other devices at');
  } finally {
    await s.cleanup();
  }
});

test('vjd status when nothing runs', async () => {
  const dir = await tempDir();
  const r = await runCli(['status', '--data-dir', dir]);
  assert.is(r.code, 3);
  assert.match(r.stdout, /Server Disabled \(vjd is not running\)/);
  await sleep(1);
});

test.run();
