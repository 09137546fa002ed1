// Config reloads against a running server: a refused reload shows in GET /status and `vjd status` until a good one
// clears it, and a key added live while OSC listens beyond loopback applies at once, OSC moving to loopback with its
// reason in /status, the log and `vjd status` (fail closed, instead of refusing the whole reload).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket } from 'node:dgram';
import { readFile, writeFile } from 'node:fs/promises';
import { startServer, req, waitUntil, editConfig, runCli, type TestServer } from '../helpers/server.js';

let s: TestServer;
let oscPort: number;
const sender = createSocket('udp4');
const KEY = 'reload-osc-test-key';

test.before(async () => {
  await new Promise<void>((r) => sender.bind(0, '127.0.0.1', () => r()));
  const probe = createSocket('udp4');
  oscPort = await new Promise<number>((r) => probe.bind(0, '0.0.0.0', () => r(probe.address().port)));
  await new Promise<void>((r) => probe.close(() => r()));
  s = await startServer({ config: { osc: { enabled: true, host: '0.0.0.0', port: oscPort } } });
});
test.after(async () => {
  sender.close();
  await s.cleanup();
});

const status = async (headers: Record<string, string> = {}) => (await req('GET', `${s.base}/api/v1/status`, { headers })).json();
const until = (cond: () => Promise<boolean>) => waitUntil(cond, 30000, 50);
// Without --config: the file may be the broken one this test wrote, and the data dir alone finds the server.
const cliStatus = async () => (await runCli(['status', '--data-dir', s.dataDir])).stdout;

test('a refused reload shows in /status.reloadError (key, file, message, time) and in `vjd status`; a good reload clears it', async () => {
  assert.is((await status()).reloadError, null);
  const t0 = Date.now();
  await editConfig(s, (c) => {
    c.server.maxEventClients = -5;
  });
  await until(async () => (await status()).reloadError !== null);
  const e = (await status()).reloadError;
  assert.is(e.key, 'server.maxEventClients');
  assert.is(e.file, s.configFile);
  assert.ok(e.message.includes('server.maxEventClients'), e.message);
  assert.ok(Date.parse(e.at) >= t0 - 1000 && !Number.isNaN(Date.parse(e.at)), e.at);
  const text = await cliStatus();
  assert.ok(text.includes('config reload refused') && text.includes('server.maxEventClients'), text);
  // A file that is not JSON at all: no single key is at fault.
  const good = JSON.parse(await readFile(s.configFile!, 'utf8'));
  good.server.maxEventClients = 300;
  await writeFile(s.configFile!, '{ not json');
  await until(async () => (await status()).reloadError?.key === null);
  await writeFile(s.configFile!, JSON.stringify(good, null, 2));
  await until(async () => (await status()).reloadError === null);
  assert.ok(!(await cliStatus()).includes('config reload refused'));
});

test('a key added live while OSC listens on every address applies, and OSC moves to loopback with a reason', async () => {
  const before = await status();
  assert.equal(
    { host: before.osc.host, listening: before.osc.listening, restricted: before.osc.restricted },
    { host: '0.0.0.0', listening: true, restricted: null },
  );
  assert.is((await req('GET', `${s.base}/api/v1/effects`)).status, 200);
  await editConfig(s, (c) => {
    c.server.apiKey = KEY;
  });
  await until(async () => (await req('GET', `${s.base}/api/v1/effects`)).status === 401);
  assert.is((await req('GET', `${s.base}/api/v1/effects`, { headers: { 'x-api-key': KEY } })).status, 200);
  await until(async () => (await status()).osc.host === '127.0.0.1' && (await status()).osc.listening === true);
  const now = await status();
  assert.is(now.reloadError, null, 'the reload itself was applied');
  assert.ok(typeof now.osc.restricted === 'string' && now.osc.restricted.includes('osc.allowRemote'), now.osc.restricted);
  await s.waitForLog('OSC moved to loopback');
  assert.ok((await cliStatus()).includes('OSC listens on loopback only'));
  // Local control still works on the loopback socket.
  await until(async () => {
    await new Promise<void>((r) => sender.send(oscDimmer(0.25), oscPort, '127.0.0.1', () => r()));
    return (await req('GET', `${s.base}/api/v1/global`, { headers: { 'x-api-key': KEY } })).json().dimmer === 0.25;
  });
});

function oscDimmer(v: number): Buffer {
  const value = Buffer.alloc(4);
  value.writeFloatBE(v);
  return Buffer.concat([Buffer.from('/vjd/global/dimmer\0\0', 'latin1'), Buffer.from(',f\0\0', 'latin1'), value]);
}

test.run();
