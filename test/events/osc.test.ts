// OSC over UDP on loopback against a real server: every address changes state (checked over HTTP), bundles apply in
// order, values go through the route's validation, malformed packets change nothing, feedback reaches a listening
// socket. Also here (a server without a key and the default limit): the 257th event client is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { startServer, req, waitUntil, editConfig, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

const require = createRequire(import.meta.url);
const osc = require('osc') as {
  writePacket(p: unknown, o?: { metadata: boolean }): Uint8Array;
  readPacket(d: Uint8Array, o: { metadata: boolean }): any;
};

let s: TestServer;
let oscPort: number;
let feedback: Socket;
const heard: any[] = [];
const sender = createSocket('udp4');

function udpPort(): Promise<number> {
  return new Promise((resolve) => {
    const u = createSocket('udp4');
    u.bind(0, '127.0.0.1', () => {
      const port = u.address().port;
      u.close(() => resolve(port));
    });
  });
}

test.before(async () => {
  oscPort = await udpPort();
  feedback = createSocket('udp4');
  await new Promise<void>((r) => feedback.bind(0, '127.0.0.1', () => r()));
  feedback.on('message', (data) => {
    try {
      heard.push(osc.readPacket(new Uint8Array(data), { metadata: true }));
    } catch {
      heard.push({ unreadable: true });
    }
  });
  s = await startServer({
    config: { osc: { enabled: true, host: '127.0.0.1', port: oscPort, feedback: [{ host: '127.0.0.1', port: feedback.address().port }] } },
  });
});
test.after(async () => {
  feedback.close();
  sender.close();
  await s.cleanup();
});

const send = (packet: unknown): Promise<void> =>
  new Promise((resolve) =>
    sender.send(
      packet instanceof Uint8Array || Buffer.isBuffer(packet) ? packet : osc.writePacket(packet, { metadata: true }),
      oscPort,
      '127.0.0.1',
      () => resolve(),
    ),
  );
const msg = (address: string, ...args: Array<{ type: string; value?: unknown }>) => ({ address, args });
const get = async (path: string) => (await req('GET', `${s.base}${path}`)).json();
const until = (cond: () => Promise<boolean>) => waitUntil(cond, 20000, 50);

test('OSC is listed in capabilities and /status', async () => {
  assert.ok((await get('/api/v1/capabilities')).features.includes('osc'));
  const status = (await get('/api/v1/status')).osc;
  assert.equal({ listening: status.listening, port: status.port }, { listening: true, port: oscPort });
});

test('global: dimmer and blackout, a bundle applied in order', async () => {
  await send(msg('/vjd/global/dimmer', { type: 'f', value: 0.25 }));
  await until(async () => (await get('/api/v1/global')).dimmer === 0.25);
  await send(msg('/vjd/global/blackout', { type: 'T' }));
  await until(async () => (await get('/api/v1/global')).blackout === true);
  await send(msg('/vjd/global/blackout', { type: 'i', value: 0 }));
  await until(async () => (await get('/api/v1/global')).blackout === false);
  await send({
    timeTag: { raw: [0, 1] },
    packets: [
      msg('/vjd/global/dimmer', { type: 'f', value: 0.5 }),
      msg('/vjd/global/blackout', { type: 'T' }),
      msg('/vjd/global/dimmer', { type: 'f', value: 0.75 }),
      msg('/vjd/global/blackout', { type: 'F' }),
    ],
  });
  await until(async () => {
    const g = await get('/api/v1/global');
    return g.dimmer === 0.75 && g.blackout === false && (await get('/api/v1/status')).osc.applied >= 7;
  });
});

test('source, effects, palettes and actions', async () => {
  const sources = (await get('/api/v1/sources')).items as Array<{ id: string; active: boolean }>;
  const target = sources.find((x) => !x.active) ?? sources[0]!;
  await send(msg('/vjd/source/select', { type: 's', value: target.id }));
  await until(async () => (await get('/api/v1/sources/current')).id === target.id);

  const type = (await get('/api/v1/effects/available')).items[0].type as string;
  const count = (await get('/api/v1/effects')).count as number;
  await send(msg('/vjd/effects/add', { type: 's', value: type }));
  await until(async () => (await get('/api/v1/effects')).count === count + 1);
  const at = count + 1;
  const slot = async () => (await get('/api/v1/effects')).items[at - 1].enabled as boolean;
  await send(msg(`/vjd/effects/${at}/enabled`, { type: 'F' }));
  await until(async () => (await slot()) === false);
  await send(msg(`/vjd/effects/${at}/toggle`));
  await until(async () => (await slot()) === true);
  // A button's release (0) does not toggle again: the next change seen is the explicit one.
  await send(msg(`/vjd/effects/${at}/toggle`, { type: 'f', value: 0 }));
  await send(msg(`/vjd/effects/${at}/enabled`, { type: 'i', value: 0 }));
  await until(async () => (await slot()) === false);
  await send(msg(`/vjd/effects/${at}/toggle`, { type: 'i', value: 0 }));
  await send(msg('/vjd/global/blackout', { type: 'T' }));
  await until(async () => (await get('/api/v1/global')).blackout === true);
  assert.is(await slot(), false);
  await send(msg('/vjd/global/blackout', { type: 'F' }));

  const palettes = (await get('/api/v1/palettes')).items as Array<{ id: string }>;
  assert.ok(palettes.length >= 2, 'the default palettes');
  await send(msg('/vjd/palette/select', { type: 's', value: palettes[1]!.id }));
  await until(async () => (await get('/api/v1/palettes')).currentId === palettes[1]!.id);
  await send(msg('/vjd/palette/select', { type: 'i', value: 1 }));
  await until(async () => (await get('/api/v1/palettes')).currentId === palettes[0]!.id);
  await send(msg('/vjd/palette/next'));
  await until(async () => (await get('/api/v1/palettes')).currentId !== palettes[0]!.id);

  await send(msg('/vjd/global/dimmer', { type: 'f', value: 0.5 }));
  await until(async () => (await get('/api/v1/global')).dimmer === 0.5);
  await send(msg('/vjd/actions/run', { type: 's', value: 'global.dimmer-full' }));
  await until(async () => (await get('/api/v1/global')).dimmer === 1);
});

test("effect inputs: a fader float spans the input's MIN..MAX; the answer comes back as feedback", async () => {
  const available = (await get('/api/v1/effects/available')).items as Array<{
    type: string;
    inputs?: Array<{ name: string; type: string; min?: unknown; max?: unknown }>;
  }>;
  const withFloat = available.find((e) =>
    e.inputs?.some((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min),
  );
  assert.ok(withFloat, 'an effect with a float input');
  const input = withFloat!.inputs!.find(
    (i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min,
  )!;
  const count = (await get('/api/v1/effects')).count as number;
  await send(msg('/vjd/effects/add', { type: 's', value: withFloat!.type }));
  await until(async () => (await get('/api/v1/effects')).count === count + 1);
  const at = count + 1;
  const min = input.min as number;
  const max = input.max as number;
  const valueNow = async () =>
    ((await get(`/api/v1/effects/${at}`)).inputs as Array<{ name: string; value: number }>).find((i) => i.name === input.name)!.value;
  heard.length = 0;
  await send(msg(`/vjd/effects/${at}/${input.name}`, { type: 'f', value: 0.25 }));
  await until(async () => Math.abs((await valueNow()) - (min + 0.25 * (max - min))) < 1e-4);
  await until(async () =>
    heard.some((p) =>
      (p.packets ?? [p]).some((m: any) => m.address === `/vjd/effects/${at}/${input.name}` && Math.abs(m.args[0].value - 0.25) < 1e-4),
    ),
  );
  await send(msg(`/vjd/effects/${at}/${input.name}`, { type: 'f', value: 1 }));
  await until(async () => Math.abs((await valueNow()) - max) < 1e-4);
  // An unknown input is refused by the route and changes nothing.
  const rejected = (await get('/api/v1/status')).osc.rejected as number;
  await send(msg(`/vjd/effects/${at}/no_such_input`, { type: 'f', value: 0.5 }));
  await until(async () => (await get('/api/v1/status')).osc.rejected > rejected);
  assert.ok(Math.abs((await valueNow()) - max) < 1e-4);
});

test('mix: cue, take, T-bar position', async () => {
  const sources = (await get('/api/v1/sources')).items as Array<{ id: string }>;
  const program = (await get('/api/v1/mix')).program.id as string;
  const next = sources.find((x) => x.id !== program)!;
  await send(msg('/vjd/mix/cue', { type: 's', value: next.id }));
  await until(async () => (await get('/api/v1/mix')).preview?.id === next.id);
  await send(msg('/vjd/mix/take'));
  await until(async () => {
    const m = await get('/api/v1/mix');
    return m.program.id === next.id && m.inTransition === false;
  });
  await send(msg('/vjd/mix/cue', { type: 's', value: program }));
  await until(async () => (await get('/api/v1/mix')).preview?.id === program);
  await send(msg('/vjd/mix/position', { type: 'f', value: 0.25 }));
  await until(async () => (await get('/api/v1/mix')).position === 0.25);
  await send(msg('/vjd/mix/position', { type: 'f', value: 1 }));
  await until(async () => (await get('/api/v1/mix')).program.id === program);
  // The default transition a take or a recall that names none uses.
  await send(msg('/vjd/mix/transition', { type: 's', value: 'fade' }));
  await send(msg('/vjd/mix/duration', { type: 'f', value: 750 }));
  await until(async () => {
    const t = (await get('/api/v1/mix')).transition;
    return t.type === 'fade' && t.durationMs === 750;
  });
});

test('bad values, types, addresses and malformed packets change nothing; the server keeps serving', async () => {
  await send(msg('/vjd/global/dimmer', { type: 'f', value: 0.5 }));
  await until(async () => (await get('/api/v1/global')).dimmer === 0.5);
  const before = await get('/api/v1/global');
  const rejected = (await get('/api/v1/status')).osc.rejected as number;
  const good = osc.writePacket(msg('/vjd/global/dimmer', { type: 'f', value: 0.125 }), { metadata: true });
  const bad: Uint8Array[] = [
    osc.writePacket(msg('/vjd/global/dimmer', { type: 'f', value: 7 }), { metadata: true }), // out of range, as over HTTP
    osc.writePacket(msg('/vjd/global/dimmer', { type: 's', value: '0.9' }), { metadata: true }), // wrong type
    osc.writePacket(msg('/vjd/global/blackout', { type: 's', value: 'yes' }), { metadata: true }),
    osc.writePacket(msg('/vjd/nothing/here', { type: 'f', value: 1 }), { metadata: true }),
    osc.writePacket(msg('/vjd/effects/99/enabled', { type: 'T' }), { metadata: true }), // no such slot: 404 from the route
    good.subarray(0, good.length - 3), // truncated
    Buffer.concat([Buffer.from(good.subarray(0, 20)), Buffer.from(',zzz\0\0\0\0'), Buffer.alloc(4)]), // wrong type tags
    Buffer.alloc(60_000, 0x2f), // huge
    Buffer.from('#bundle\0garbage'),
    Buffer.from([0xff, 0xfe, 0x00]),
  ];
  // One at a time, each waited for by the server's own counter: UDP on loopback drops what overflows the receive buffer.
  const status = async () => (await get('/api/v1/status')).osc as { packets: number; rejected: number };
  for (let round = 0; round < 5; round++) {
    for (const [i, b] of bad.entries()) {
      const seen = await status();
      await send(b);
      await until(async () => (await status()).packets > seen.packets);
      await until(async () => (await status()).rejected > seen.rejected).catch(() => assert.unreachable(`bad packet ${i} was not refused`));
    }
  }
  // Packets are applied in order: once the sentinel shows, every bad one before it was handled.
  await send(msg('/vjd/global/blackout', { type: 'T' }));
  await until(async () => (await get('/api/v1/global')).blackout === true);
  const after = await get('/api/v1/global');
  assert.is(after.dimmer, before.dimmer);
  assert.ok((await status()).rejected >= rejected + 5 * bad.length, 'every bad packet counted');
  // A flood of them does not stop the server.
  for (let round = 0; round < 100; round++) for (const b of bad) await send(b);
  assert.is((await req('GET', `${s.base}/api/v1/status`)).status, 200);
  // Sent again while the flood may still have this sender's packets-per-second budget spent.
  await until(async () => {
    await send(msg('/vjd/global/dimmer', { type: 'f', value: 0.625 }));
    return (await get('/api/v1/global')).dimmer === 0.625;
  });
  // Logged once per source and address, not once per packet.
  const lines = s
    .logs()
    .split('\n')
    .filter((l) => l.includes('OSC message ignored'));
  assert.ok(lines.length <= bad.length + 2, `${lines.length} log lines`);
  await send(msg('/vjd/global/blackout', { type: 'F' }));
  await until(async () => (await get('/api/v1/global')).blackout === false);
});

test('feedback: a change over HTTP reaches the listening socket as the same addresses', async () => {
  heard.length = 0;
  const r = await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.375 } });
  assert.is(r.status, 200);
  await until(async () =>
    heard.some((p) =>
      (p.packets ?? [p]).some((m: any) => m.address === '/vjd/global/dimmer' && m.args[0].type === 'f' && m.args[0].value === 0.375),
    ),
  );
  const packet = heard.find((p) => (p.packets ?? [p]).some((m: any) => m.address === '/vjd/global/dimmer'));
  assert.ok((packet.packets ?? [packet]).some((m: any) => m.address === '/vjd/global/blackout' && m.args[0].type === 'i'));
  // The fps once per second.
  await until(async () => heard.some((p) => (p.packets ?? [p]).some((m: any) => m.address === '/vjd/status/fps')));
});

test('feedback: a layer change over HTTP reaches the listening socket as /vjd/layers/{n}/…', async () => {
  heard.length = 0;
  const r = await req('POST', `${s.base}/api/v1/layers/opacity`, { body: { layer: 1, value: 0.25 } });
  assert.is(r.status, 200, r.text);
  const has = (address: string, type: string, value: unknown) =>
    heard.some((p) => (p.packets ?? [p]).some((m: any) => m.address === address && m.args[0].type === type && m.args[0].value === value));
  await until(
    async () => has('/vjd/layers/1/opacity', 'f', 0.25) && has('/vjd/layers/1/blend', 's', 'normal') && has('/vjd/layers/1/mute', 'i', 0),
  );
  assert.is((await req('POST', `${s.base}/api/v1/layers/opacity`, { body: { layer: 1, value: 1 } })).status, 200);
});

test('feedback: an effect input set over HTTP reaches the listening socket as /vjd/effects/{index}/{input}, 0..1 over MIN..MAX', async () => {
  const available = (await get('/api/v1/effects/available')).items as Array<{
    type: string;
    inputs: Array<{ name: string; type: string; min?: unknown; max?: unknown }>;
  }>;
  const effect = available.find((e) =>
    e.inputs.some((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min),
  )!;
  const input = effect.inputs.find((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min)!;
  const added = await req('POST', `${s.base}/api/v1/effects/add`, { body: { type: effect.type } });
  assert.is(added.status, 200);
  const index = added.json().index as number;
  const min = input.min as number;
  const max = input.max as number;
  heard.length = 0;
  const r = await req('POST', `${s.base}/api/v1/effects/params`, { body: { index, values: { [input.name]: min + 0.625 * (max - min) } } });
  assert.is(r.status, 200);
  await until(async () =>
    heard.some((p) =>
      (p.packets ?? [p]).some(
        (m: any) =>
          m.address === `/vjd/effects/${index}/${input.name}` && m.args[0].type === 'f' && Math.abs(m.args[0].value - 0.625) < 1e-4,
      ),
    ),
  );
});

test("OSCQuery: GET /api/v1/osc describes the address space, the chain's inputs with their values; ?HOST_INFO says where OSC listens", async () => {
  const available = (await get('/api/v1/effects/available')).items as Array<{
    type: string;
    inputs: Array<{ name: string; type: string; min?: unknown; max?: unknown }>;
  }>;
  const effect = available.find((e) =>
    e.inputs.some((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min),
  )!;
  const input = effect.inputs.find((i) => i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number' && i.max !== i.min)!;
  const index = (await req('POST', `${s.base}/api/v1/effects/add`, { body: { type: effect.type } })).json().index as number;
  const min = input.min as number;
  const max = input.max as number;
  assert.is(
    (await req('POST', `${s.base}/api/v1/effects/params`, { body: { index, values: { [input.name]: min + 0.75 * (max - min) } } })).status,
    200,
  );
  const tree = await get('/api/v1/osc');
  assert.is(tree.FULL_PATH, '/');
  const vjd = tree.CONTENTS.vjd;
  assert.is(vjd.FULL_PATH, '/vjd');
  assert.equal(vjd.CONTENTS.global.CONTENTS.dimmer, {
    FULL_PATH: '/vjd/global/dimmer',
    TYPE: 'f',
    ACCESS: 3,
    DESCRIPTION: vjd.CONTENTS.global.CONTENTS.dimmer.DESCRIPTION,
    RANGE: [{ MIN: 0, MAX: 1 }],
  });
  assert.is(vjd.CONTENTS.status.CONTENTS.fps.ACCESS, 1);
  const node = vjd.CONTENTS.effects.CONTENTS[String(index)].CONTENTS[input.name];
  assert.is(node.FULL_PATH, `/vjd/effects/${index}/${input.name}`);
  assert.is(node.TYPE, 'f');
  assert.ok(Math.abs(node.VALUE[0] - 0.75) < 1e-4, JSON.stringify(node));
  // What it describes is what the server takes: the node's address sets the input.
  await send(msg(node.FULL_PATH, { type: 'f', value: 0.5 }));
  await until(
    async () =>
      Math.abs((await get('/api/v1/osc')).CONTENTS.vjd.CONTENTS.effects.CONTENTS[String(index)].CONTENTS[input.name].VALUE[0] - 0.5) < 1e-4,
  );
  const host = await get('/api/v1/osc?HOST_INFO');
  assert.equal(
    { port: host.OSC_PORT, ip: host.OSC_IP, transport: host.OSC_TRANSPORT, name: host.NAME },
    { port: oscPort, ip: '127.0.0.1', transport: 'UDP', name: 'vjd' },
  );
  assert.ok((await get('/api/v1/capabilities')).features.includes('osc-query'));
});

test('server.maxEventClients defaults to 256: the 257th event client is closed with 4429', async () => {
  const clients: WsClient[] = [];
  try {
    for (let i = 0; i < 256; i++) clients.push(await connectWs(wsUrl(s.base)));
    await waitUntil(() => clients.every((c) => c.messages.some((m) => m.type === 'hello')), 60000);
    const extra = await connectWs(wsUrl(s.base));
    assert.is((await extra.closed).code, 4429);
  } finally {
    for (const c of clients) c.ws.terminate();
  }
});

test('switching the server off closes the event sockets too', async () => {
  const c = await connectWs(wsUrl(s.base));
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'subscribe', topics: ['status'] });
  await c.next((m) => m.type === 'subscribed');
  await editConfig(s, (cfg) => {
    cfg.server.enabled = false;
  });
  const closed = await Promise.race([c.closed, new Promise<null>((r) => setTimeout(() => r(null), 60000).unref())]);
  c.ws.terminate();
  assert.is(closed?.code, 1001);
});

test.run();
