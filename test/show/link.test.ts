// The MQTT show link over a real mosquitto and real servers: three boxes (a leader and a member in group "stage",
// a member in "foh") join one show; GET /show lists them online; a command on cmd/all reaches every box and each
// replies; cmd/<group> reaches only that group; oversized, malformed, unknown-route, refused and retained commands
// change nothing and are counted; a wrong password is refused and said so; a broker restart leaves the boxes
// rendering and they come back; a box stopped cleanly or killed is shown offline.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { startBroker, type TestBroker } from '../helpers/mosquitto.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

const SHOW = 'gig';
const PASSWORD = 'pw-Boxes-7f3a';
const WRONG = 'wrong-Secret-91c2';
let broker: TestBroker;
let a: TestServer;
let b: TestServer;
let c: TestServer;
let client: MqttClient;
const heard: Array<{ topic: string; text: string; retain: boolean }> = [];

const until = (cond: () => Promise<boolean> | boolean, ms = 45_000) => waitUntil(cond, ms, 100);
const get = async (s: TestServer, path: string) => (await req('GET', `${s.base}/api/v1${path}`)).json();
const show = (s: TestServer) => get(s, '/show');
const box = async (s: TestServer, name: string) =>
  ((await show(s)).boxes as Array<{ box: string; online: boolean }>).find((x) => x.box === name);
const publish = (topic: string, payload: string | Buffer, retain = false) => client.publishAsync(topic, payload, { qos: 1, retain });
const cmd = (target: string, payload: object | string | Buffer, retain = false) =>
  publish(
    `vjd/${SHOW}/cmd/${target}`,
    typeof payload === 'object' && !Buffer.isBuffer(payload) ? JSON.stringify(payload) : payload,
    retain,
  );
const reply = (boxName: string, id: string) => heard.find((m) => m.topic === `vjd/${SHOW}/reply/${boxName}/${id}`);

async function boxConfig(name: string, groups: string[], leader: boolean, password = PASSWORD) {
  const file = join(broker.dir, `${name}.pw`);
  await writeFile(file, `${password}\n`);
  return { show: { name: SHOW, box: name, broker: { url: broker.url, username: 'box', passwordFile: file }, groups, leader } };
}

test.before(async () => {
  try {
    broker = await startBroker({ box: PASSWORD, tester: 'pw-tester' });
    // One after another: three servers starting at once on a loaded 2-core box can pass the start guard's time.
    a = await startServer({ config: await boxConfig('a', ['stage'], true) });
    b = await startServer({ config: await boxConfig('b', ['stage'], false) });
    c = await startServer({ config: await boxConfig('c', ['foh'], false) });
    client = await mqtt.connectAsync(broker.url, { username: 'tester', password: 'pw-tester', protocolVersion: 5, reconnectPeriod: 500 });
    client.on('message', (topic, payload, packet) => heard.push({ topic, text: payload.toString(), retain: packet.retain }));
    await client.subscribeAsync([`vjd/${SHOW}/reply/#`, `vjd/${SHOW}/box/+/state`], { qos: 1 });
  } catch (err) {
    // uvu does not print a failing hook's error: say what went wrong before every case fails.
    console.error('setup failed:', err);
    throw err;
  }
});

test.after(async () => {
  client?.end(true);
  await Promise.all([a, b, c].map((s) => s?.cleanup()));
  await broker?.cleanup();
});

test('GET /show shows the connection and every box online', async () => {
  await until(async () => {
    const s = await show(a);
    return (
      s.broker.connected && ['a', 'b', 'c'].every((n) => s.boxes.some((x: { box: string; online: boolean }) => x.box === n && x.online))
    );
  });
  const s = await show(a);
  assert.equal([s.enabled, s.show, s.box, s.groups, s.leader], [true, SHOW, 'a', ['stage'], true]);
  assert.equal(s.broker.url, broker.url);
  const cView = s.boxes.find((x: { box: string }) => x.box === 'c');
  assert.equal(cView.groups, ['foh']);
  assert.type(cView.fps, 'number');
  assert.ok(cView.tempo.bpm > 0);
  assert.type(cView.version, 'string');
  // The password is nowhere in what the box shows or logs.
  assert.not.ok(JSON.stringify(s).includes(PASSWORD));
  assert.not.ok((await req('GET', `${a.base}/api/v1/status`)).text.includes(PASSWORD));
  assert.not.ok(a.logs().includes(PASSWORD));
});

test('a command on cmd/all applies on every box, and each replies', async () => {
  await cmd('all', { id: 'dim1', op: 'POST /api/v1/global/dimmer', body: { value: 0.3 } });
  for (const s of [a, b, c]) await until(async () => (await get(s, '/global')).dimmer === 0.3);
  await until(() => ['a', 'b', 'c'].every((n) => reply(n, 'dim1')));
  for (const n of ['a', 'b', 'c']) {
    const r = JSON.parse(reply(n, 'dim1')!.text);
    assert.equal([r.id, r.box, r.status, r.body.dimmer], ['dim1', n, 200, 0.3]);
    assert.equal(reply(n, 'dim1')!.retain, false);
  }
  assert.equal((await show(b)).counters.applied, 1);
});

test('a command on cmd/<group> reaches only that group', async () => {
  await cmd('stage', { id: 'bo1', op: 'POST /api/v1/global/blackout', body: { enabled: true } });
  await until(() => Boolean(reply('a', 'bo1') && reply('b', 'bo1')));
  // Commands reach a box in the order sent: once c answers a later one, it has heard everything before it.
  await cmd('c', { id: 'after1', op: 'POST /api/v1/global/dimmer', body: { value: 0.3 } });
  await until(() => Boolean(reply('c', 'after1')));
  assert.equal(reply('c', 'bo1'), undefined);
  assert.equal(
    [(await get(a, '/global')).blackout, (await get(b, '/global')).blackout, (await get(c, '/global')).blackout],
    [true, true, false],
  );
  assert.equal((await show(c)).counters.received, 2);
});

test('oversized, malformed, unknown-route, refused and retained commands change nothing and are counted', async () => {
  const before = (await show(c)).counters;
  await cmd('c', Buffer.alloc(1024 * 1024, 0x7b));
  await cmd('c', '{"id": "x1", "op": ');
  await cmd('c', { id: 'x2', op: 'GET /api/v1/global' });
  await cmd('c', { id: 'x3', op: 'POST /api/v1/no/such/route', body: {} });
  await cmd('c', { id: 'x4', op: 'POST /api/v1/global/dimmer', body: { value: 5 } });
  await cmd('c', { id: 'x5', op: 'POST /api/v1/global/dimmer', body: { value: 0.9 } }, true);
  await until(async () => (await show(c)).counters.received >= before.received + 6);
  await until(() => Boolean(reply('c', 'x3') && reply('c', 'x4')));
  const after = (await show(c)).counters;
  assert.equal(after.oversized - before.oversized, 1);
  assert.equal(after.malformed - before.malformed, 2);
  assert.equal(after.unknownRoute - before.unknownRoute, 1);
  assert.equal(after.refused - before.refused, 1);
  assert.ok(after.retainedIgnored - before.retainedIgnored >= 1);
  assert.equal(after.applied, before.applied);
  assert.equal(JSON.parse(reply('c', 'x2')!.text).status, 400);
  assert.equal(JSON.parse(reply('c', 'x3')!.text).status, 404);
  assert.equal(JSON.parse(reply('c', 'x4')!.text).status, 400);
  assert.equal(reply('c', 'x5'), undefined);
  assert.equal((await get(c, '/global')).dimmer, 0.3);
  // A box that connects later is not handed the retained command either: it is cleared, and never applied.
  await cmd('c', '', true);
  assert.ok(c.logs().includes('show command ignored'));
});

test('a box with a wrong password is refused and says so', async () => {
  const d = await startServer({ config: await boxConfig('d', [], false, WRONG) });
  try {
    await until(async () => /not authorized/i.test((await show(d)).broker.lastError ?? ''));
    const s = await show(d);
    assert.equal(s.broker.connected, false);
    assert.not.ok(JSON.stringify(s).includes(WRONG));
    assert.not.ok(d.logs().includes(WRONG));
    // It runs on alone: local control still works.
    const r = await req('POST', `${d.base}/api/v1/global/dimmer`, { body: { value: 0.5 } });
    assert.equal(r.status, 200);
    assert.equal(await box(a, 'd'), undefined);
  } finally {
    await d.cleanup();
  }
});

test('a broker restart: the boxes keep rendering and come back', async () => {
  await broker.stop();
  await until(async () => !(await show(a)).broker.connected);
  const frames = async () => (await get(a, '/status')).render.frames as number;
  const f0 = await frames();
  await until(async () => (await frames()) > f0);
  assert.equal((await req('POST', `${a.base}/api/v1/global/dimmer`, { body: { value: 0.4 } })).status, 200);
  heard.length = 0;
  await broker.start();
  for (const s of [a, b, c]) await until(async () => (await show(s)).broker.connected, 60_000);
  const s = await show(a);
  assert.ok(s.broker.reconnects >= 1);
  assert.ok(s.broker.lastError);
  // The restarted broker held nothing: each box's state is there because it published it again.
  await until(() => ['a', 'b', 'c'].every((n) => heard.some((m) => m.topic === `vjd/${SHOW}/box/${n}/state` && JSON.parse(m.text).online)));
  await until(async () => (await show(a)).boxes.filter((x: { online: boolean }) => x.online).length === 3);
});

test('a box stopped cleanly, or killed, is shown offline', async () => {
  await b.stop('SIGTERM');
  await until(async () => (await box(a, 'b'))?.online === false);
  c.proc.kill('SIGKILL');
  await until(async () => (await box(a, 'c'))?.online === false);
  assert.equal((await box(a, 'a'))?.online, true);
});

test.run();
