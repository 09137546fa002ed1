// OSC under hostile input, with packets built by hand and sent over real UDP to a running server: type tags vjd
// does not take are refused unread, bundles whose sizes lie and trailing bytes are refused, logging stays within its
// per-sender and global budget, and feedback goes back only to a sender of an accepted /vjd message, within a budget.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket, type Socket } from 'node:dgram';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';

let s: TestServer;
let oscPort: number;
const sockets: Socket[] = [];

function udp(host = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve) => {
    const u = createSocket('udp4');
    sockets.push(u);
    u.bind(0, host, () => resolve(u));
  });
}

/** A socket that records the addresses of every OSC message it hears (bundles included). */
function listen(u: Socket): string[][] {
  const heard: string[][] = [];
  u.on('message', (data: Buffer) => heard.push(addressesIn(data)));
  return heard;
}

function addressesIn(data: Buffer): string[] {
  const text = data.toString('latin1');
  return [...text.matchAll(/\/vjd\/[a-z0-9/_]+/gi)].map((m) => m[0]);
}

// OSC encoding by hand: NUL-terminated strings padded to 4 bytes, big-endian numbers.
const str = (t: string): Buffer => {
  const b = Buffer.from(`${t}\0`, 'latin1');
  return Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
};
const i32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const f32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeFloatBE(n);
  return b;
};
const dimmer = (v: number): Buffer => Buffer.concat([str('/vjd/global/dimmer'), str(',f'), f32(v)]);
const bundle = (...elements: Buffer[]): Buffer => Buffer.concat([str('#bundle'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), ...elements]);
const element = (m: Buffer, size = m.length): Buffer => Buffer.concat([i32(size), m]);

const send = (from: Socket, packet: Buffer): Promise<void> =>
  new Promise((resolve) => from.send(packet, oscPort, '127.0.0.1', () => resolve()));
const get = async (path: string) => (await req('GET', `${s.base}${path}`)).json();
const status = async () => (await get('/api/v1/status')).osc as Record<string, number>;
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 30000, 25);
const ignoredLines = (from: number, sender?: string) =>
  s
    .logs()
    .slice(from)
    .split('\n')
    .filter((l) => l.includes('OSC message ignored') && (sender === undefined || l.includes(`"from":"${sender}:`)));

/** Sends packets in small batches, each waited for by the server's packet counter, so none is lost on loopback. */
async function sendAll(from: Socket, packets: Buffer[], batch: number): Promise<void> {
  for (let k = 0; k < packets.length; k += batch) {
    const seen = (await status()).packets!;
    const part = packets.slice(k, k + batch);
    for (const p of part) await send(from, p);
    await until(async () => (await status()).packets! >= seen + part.length);
  }
}

/** Sets the dimmer over OSC, sending again while the sender's per-second budget may still be spent. */
async function setDimmer(from: Socket, v: number): Promise<void> {
  await until(async () => {
    await send(from, dimmer(v));
    return (await get('/api/v1/global')).dimmer === v;
  });
}

test.before(async () => {
  const probe = await udp();
  oscPort = probe.address().port;
  probe.close();
  sockets.length = 0;
  s = await startServer({ config: { osc: { enabled: true, host: '127.0.0.1', port: oscPort, replyToSender: true, feedback: [] } } });
});
test.after(async () => {
  for (const u of sockets) u.close();
  await s.cleanup();
});

test('a flood of array type tags (8 KiB of `[]`) is refused before any decoding; /vjd messages still apply after it', async () => {
  const tags = `,${'[]'.repeat(4080)}`;
  const flood = Buffer.concat([str('/vjd/global/dimmer'), str(tags)]);
  assert.is(flood.length, 8184);
  const from = await udp();
  const before = await status();
  const logFrom = s.logs().length;
  const count = 400;
  await sendAll(
    from,
    Array.from({ length: count }, () => flood),
    8,
  );
  const after = await status();
  // Every one was dropped over the sender's budget or refused by the type-tag check: none reached a route.
  assert.is(after.malformed! - before.malformed! + (after.dropped! - before.dropped!), count);
  assert.ok(after.malformed! > before.malformed!, 'refused by the type-tag check');
  assert.is(after.applied, before.applied);
  // The log is written asynchronously: wait for the line rather than expect it at once.
  await until(() => ignoredLines(logFrom).some((l) => l.includes('type tag \\"[\\" is not taken')));
  await setDimmer(from, 0.375);
});

test('bundles whose element sizes lie, and bytes after a message, are refused and change nothing', async () => {
  const from = await udp();
  await setDimmer(from, 0.25);
  const m = dimmer(0.875);
  const bad = [
    bundle(element(m, m.length + 8)), // claims more than the bundle holds
    bundle(element(m, m.length - 4)), // claims less: the message would be cut
    bundle(element(m, 0)),
    bundle(element(m, -4)),
    bundle(element(m), Buffer.alloc(4)), // a size without an element
    Buffer.concat([m, Buffer.alloc(4)]), // trailing zeros
    Buffer.concat([m, Buffer.from('abcd')]), // trailing junk
    bundle(element(Buffer.concat([m, Buffer.alloc(4)]))), // trailing bytes inside a bundle element
  ];
  const before = await status();
  for (const b of bad) {
    const seen = await status();
    await send(from, b);
    await until(async () => (await status()).malformed! > seen.malformed!);
  }
  assert.is((await status()).malformed! - before.malformed!, bad.length);
  // Applied in order: once a later message shows, none of the refused ones had applied.
  await send(from, Buffer.concat([str('/vjd/global/blackout'), str(',T')]));
  await until(async () => (await get('/api/v1/global')).blackout === true);
  assert.is((await get('/api/v1/global')).dimmer, 0.25);
  // The same message in a well-formed bundle applies: the refusals were about the framing only.
  await send(from, bundle(element(m), element(Buffer.concat([str('/vjd/global/blackout'), str(',F')]))));
  await until(async () => {
    const g = await get('/api/v1/global');
    return g.dimmer === 0.875 && g.blackout === false;
  });
});

test('logging: 1100 distinct addresses from one sender cost one line per window, not one each', async () => {
  const from = await udp();
  const sender = '127.0.0.1';
  const logFrom = s.logs().length;
  const started = Date.now();
  const before = await status();
  const count = 1100;
  // Fresh addresses until that many reached the address check (packets over the sender's budget are dropped unread).
  let next = 0;
  while ((await status()).rejected! - before.rejected! < count) {
    const packets = Array.from({ length: 50 }, () => Buffer.concat([str(`/vjd/nothing/${next++}`), str(',f'), f32(1)]));
    await sendAll(from, packets, 50);
  }
  const windows = Math.ceil((Date.now() - started) / 10_000) + 1;
  const lines = ignoredLines(logFrom, sender);
  assert.ok(lines.length <= windows, `${lines.length} lines for ${count} refused addresses`);
});

test('logging: many senders together stay within the global budget per window', async () => {
  const logFrom = s.logs().length;
  const started = Date.now();
  const senders = await Promise.all(Array.from({ length: 40 }, (_, k) => udp(`127.0.0.${k + 2}`)));
  const before = await status();
  for (const u of senders) await send(u, Buffer.concat([str('/vjd/nothing'), str(',f'), f32(1)]));
  await until(async () => (await status()).rejected! - before.rejected! >= senders.length);
  const fromThem = () => ignoredLines(logFrom).filter((l) => /"from":"127\.0\.0\.([2-9]|[1-4][0-9]):/.test(l));
  await until(() => fromThem().length >= 1);
  const windows = Math.ceil((Date.now() - started) / 10_000) + 1;
  const lines = fromThem();
  assert.ok(lines.length <= 16 * windows, `${lines.length} lines from ${senders.length} senders`);
});

test('replyToSender: a stray packet does not redirect feedback; a sender of an accepted /vjd message gets it', async () => {
  const stray = await udp();
  const strayHeard = listen(stray);
  // Twelve bytes: a well-formed message to an address vjd does not have.
  const twelve = Buffer.concat([str('/vjd'), str(',')]);
  assert.is(twelve.length, 12);
  const strayOnce = async (): Promise<void> => {
    const seen = (await status()).rejected!;
    await until(async () => {
      await send(stray, twelve);
      return (await status()).rejected! > seen;
    });
  };
  await strayOnce();
  const controller = await udp();
  const controllerHeard = listen(controller);
  await setDimmer(controller, 0.5);
  await until(() => controllerHeard.some((a) => a.includes('/vjd/global/dimmer')));
  // Another stray packet, then changes over HTTP: they go to the controller only.
  await strayOnce();
  for (const v of [0.125, 0.625]) {
    const n = controllerHeard.length;
    assert.is((await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: v } })).status, 200);
    await until(() => controllerHeard.length > n);
  }
  assert.equal(strayHeard, []);
});

test('replyToSender: feedback to the sender is budgeted per second (counted in osc.replyDropped)', async () => {
  const controller = await udp();
  const heard = listen(controller);
  await setDimmer(controller, 0.5);
  await until(() => heard.length > 0);
  const before = (await status()).replyDropped!;
  let value = 0;
  const lane = async (): Promise<void> => {
    for (let k = 0; k < 2000 && (await status()).replyDropped! === before; k++) {
      value = (value + 1) % 1000;
      await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: value / 1000 } });
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  assert.ok((await status()).replyDropped! > before, 'some feedback was held back');
  // The server still answers and the controller still hears later changes.
  const n = heard.length;
  await until(async () => {
    await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: Math.random() } });
    return heard.length > n;
  });
});

test.run();
