// The show link over TLS with a real mosquitto: a certificate authority and a broker certificate made here with
// openssl; a box given the authority (show.broker.tls.ca) connects over mqtts and joins; a box without it refuses
// the broker's certificate, says so in GET /show, and runs on alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBroker, type TestBroker } from '../helpers/mosquitto.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
let certs = '';
let broker: TestBroker;
let trusting: TestServer;
let doubting: TestServer;

const show = async (s: TestServer) => (await req('GET', `${s.base}/api/v1/show`)).json();

/** A throwaway authority and a broker certificate for 127.0.0.1 signed by it. */
async function makeCerts(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const f = (name: string) => join(dir, name);
  const quiet = { timeout: 30_000 };
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      f('ca.key'),
      '-out',
      f('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=vjd test authority',
    ],
    quiet,
  );
  await run(
    'openssl',
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('broker.key'), '-out', f('broker.csr'), '-subj', '/CN=127.0.0.1'],
    quiet,
  );
  await writeFile(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  await run(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      f('broker.csr'),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f('broker.pem'),
      '-days',
      '2',
      '-extfile',
      f('ext.cnf'),
    ],
    quiet,
  );
  return { ca: f('ca.pem'), cert: f('broker.pem'), key: f('broker.key') };
}

const config = (box: string, ca: string | null) => ({
  show: { name: 'secure', box, broker: { url: broker.url, ...(ca ? { tls: { ca } } : {}) }, groups: [], leader: false },
});

test.before(async () => {
  try {
    certs = await tempDir('vjd-tls-');
    const files = await makeCerts(certs);
    broker = await startBroker({}, files);
    trusting = await startServer({ config: config('trusting', files.ca) });
    doubting = await startServer({ config: config('doubting', null) });
  } catch (err) {
    // uvu does not print a failing hook's error.
    console.error('setup failed:', err);
    throw err;
  }
});

test.after(async () => {
  await Promise.all([trusting, doubting].map((s) => s?.cleanup()));
  await broker?.cleanup();
  if (certs) await rm(certs, { recursive: true, force: true });
});

test('a box given the authority joins over mqtts', async () => {
  assert.ok(broker.url.startsWith('mqtts://'));
  await waitUntil(async () => (await show(trusting)).broker.connected, 45_000, 100);
  await waitUntil(
    async () => (await show(trusting)).boxes.some((b: { box: string; online: boolean }) => b.box === 'trusting' && b.online),
    45_000,
    100,
  );
});

test("a box without it refuses the broker's certificate, says so, and runs on alone", async () => {
  await waitUntil(async () => /certificate/i.test((await show(doubting)).broker.lastError ?? ''), 45_000, 100);
  assert.is((await show(doubting)).broker.connected, false);
  const r = await req('POST', `${doubting.base}/api/v1/global/dimmer`, { body: { value: 0.5 } });
  assert.is(r.status, 200, r.text);
});

test.run();
