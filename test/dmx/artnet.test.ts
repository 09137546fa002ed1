// Art-Net ArtDmx on loopback against a real server: the personality's master channels, source select and the 16-bit
// position change state (checked over HTTP and output pixels); only changed channels act; bad packets and other
// universes change nothing and are counted; signal loss with `hold` keeps the state.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip, shownColour } from '../helpers/colour-clip.js';
import { artDmx, udpSender, type UdpSender } from '../helpers/dmx.js';
import { freeUdpPort } from '../helpers/osc.js';
import { req, sampleOutput, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

const FPS = 25;
const UNIVERSE = 3;
const ADDRESS = 10;
// The master block with two parameters, then one layer block (offsets as GET /dmx/personality lists them).
const CH = {
  dimmer: 0,
  blackout: 1,
  scene: 2,
  bpm: 3,
  tap: 5,
  tType: 6,
  tDuration: 7,
  take: 8,
  p1: 9,
  p2: 10,
  source: 11,
  opacity: 12,
  blend: 13,
  mute: 14,
  play: 15,
  position: 17,
  lp1: 19,
};

let s: TestServer;
let work = '';
let port = 0;
let desk: UdpSender;
const slots = new Uint8Array(512);
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = (p: string, body: unknown = {}) => req('POST', api(p), { body, timeoutMs: 20000 });
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);
const dmx = () => get('/dmx');

/** Sets channels (by personality offset) and sends the whole universe, as a desk does every frame. */
async function frame(values: Record<number, number> = {}, universe = UNIVERSE): Promise<void> {
  for (const [k, v] of Object.entries(values)) slots[ADDRESS - 1 + Number(k)] = v;
  await desk.send(artDmx(universe, slots), port);
}

/** Sends a frame and waits until the receiver has taken it (its frame count moved). */
async function applied(values: Record<number, number>): Promise<void> {
  const before = (await dmx()).frames;
  await frame(values);
  await until(async () => (await dmx()).frames > before);
}

test.before(async () => {
  work = await tempDir('vjd-dmx-artnet-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  port = await freeUdpPort();
  desk = await udpSender();
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 160, height: 120, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      dmx: {
        enabled: true,
        protocol: 'artnet',
        universe: UNIVERSE,
        address: ADDRESS,
        port,
        lossMs: 800,
        personality: { layers: 1, params: 2 },
      },
    },
  });
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.sourceKind === 'file'), 30000);
});

test.after(async () => {
  desk?.close();
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('GET /dmx, /dmx/personality and capabilities describe the receiver', async () => {
  const state = await dmx();
  assert.equal([state.listening, state.protocol, state.universe, state.address, state.port], [true, 'artnet', UNIVERSE, ADDRESS, port]);
  assert.ok((await get('/capabilities')).features.includes('dmx'));
  const p = await get('/dmx/personality');
  assert.is(p.footprint, 23);
  const byName = (name: string, layer: number | null) => p.channels.find((c: any) => c.name === name && c.layer === layer);
  assert.equal(byName('dimmer', null), {
    channel: ADDRESS,
    fineChannel: null,
    name: 'dimmer',
    layer: null,
    range: [0, 255],
    meaning: byName('dimmer', null).meaning,
  });
  assert.equal(
    [byName('position', 1).channel, byName('position', 1).fineChannel, byName('position', 1).range],
    [ADDRESS + CH.position, ADDRESS + CH.position + 1, [0, 65535]],
  );
});

test('dimmer and blackout follow their channels (HTTP and output pixels)', async () => {
  assert.is((await post('/sources/select', { id: 'source:plasma' })).status, 200);
  // The first frame sets every channel: layer 1 fully opaque, so the output shows it.
  await frame({ [CH.dimmer]: 128, [CH.opacity]: 255 });
  await until(async () => (await get('/global')).dimmer === 128 / 255);
  await frame({ [CH.blackout]: 255 });
  await until(async () => (await get('/global')).blackout === true);
  await until(async () => (await sampleOutput(s.base)).every((px) => px[0]! + px[1]! + px[2]! === 0));
  await frame({ [CH.blackout]: 0, [CH.dimmer]: 255 });
  await until(async () => {
    const g = await get('/global');
    return g.blackout === false && g.dimmer === 1;
  });
});

test('only changed channels act: an HTTP change between two identical frames stays', async () => {
  await applied({ [CH.dimmer]: 200 });
  await until(async () => (await get('/global')).dimmer === 200 / 255);
  assert.is((await post('/global/dimmer', { value: 0.5 })).status, 200);
  await applied({});
  await applied({});
  // A later changed channel proves the identical frames were mapped (frames apply in order).
  await frame({ [CH.bpm]: 0x40, [CH.bpm + 1]: 0 });
  const bpm = Math.round((20 + (0x4000 / 65535) * 280) * 100) / 100;
  await until(async () => Math.abs((await get('/tempo')).bpm - bpm) < 0.01);
  assert.is((await get('/global')).dimmer, 0.5);
});

test('master chain parameters: 0..255 spans each input MIN..MAX', async () => {
  assert.is((await post('/effects/add', { type: 'hue_shift' })).status, 200);
  await frame({ [CH.p1]: 51, [CH.p2]: 255 });
  await until(async () => {
    const inputs = (await get('/effects/1')).inputs;
    const v = (n: string) => inputs.find((i: any) => i.name === n).value;
    return Math.abs(v('shift') - 0.2) < 1e-6 && v('speed') === 2;
  });
  assert.is((await post('/effects/remove', { index: 1 })).status, 200);
});

test('source select (n-th of GET /sources), pause and a 16-bit position show the clip frame', async () => {
  const items = (await get('/sources')).items;
  const n = items.findIndex((i: any) => i.name === 'Colours') + 1;
  assert.ok(n > 0 && n < 256, `Colours at ${n}`);
  // Full brightness, so the sampled colour is the clip's own.
  await frame({ [CH.dimmer]: 255 });
  await until(async () => (await get('/global')).dimmer === 1);
  await frame({ [CH.source]: n });
  await until(async () => (await get('/sources/current')).name === 'Colours');
  await frame({ [CH.play]: 1 });
  await until(async () => (await get('/transport')).program?.state === 'paused');
  // Half way through the clip's third second: its third colour (blue).
  const v = Math.round((2.5 / 6) * 65535);
  await frame({ [CH.position]: v >> 8, [CH.position + 1]: v & 0xff });
  await until(async () => Math.abs((await get('/transport')).program.positionS - 2.5) <= 1 / FPS + 1e-6);
  await until(async () => (await shownColour(s.base)) === 2);
});

test('layer 1: opacity (HTTP and output pixels), blend, mute and its chain parameters', async () => {
  // A still colour, so what the output shows at each opacity is comparable.
  assert.is((await post('/sources/select', { id: 'source:solid_color' })).status, 200);
  const level = async () => {
    const [px] = await sampleOutput(s.base);
    return px![0]! + px![1]! + px![2]!;
  };
  await until(async () => (await level()) > 60);
  const full = await level();
  await frame({ [CH.opacity]: 0 });
  await until(async () => (await get('/layers')).layers[0].opacity === 0);
  await until(async () => (await level()) === 0);
  await frame({ [CH.opacity]: 128 });
  await until(async () => (await get('/layers')).layers[0].opacity === 128 / 255);
  // Half opacity over black: about half the level.
  await until(async () => Math.abs((await level()) - full / 2) < full / 8);
  await frame({ [CH.opacity]: 255 });
  await until(async () => (await level()) === full);
  const blends = (await get('/dmx/personality')).blendModes;
  assert.equal(blends, (await get('/layers')).blends);
  await frame({ [CH.blend]: blends.indexOf('screen') + 1, [CH.mute]: 255 });
  await until(async () => {
    const l = (await get('/layers')).layers[0];
    return l.blend === 'screen' && l.mute === true;
  });
  await frame({ [CH.blend]: blends.indexOf('normal') + 1, [CH.mute]: 0 });
  await until(async () => {
    const l = (await get('/layers')).layers[0];
    return l.blend === 'normal' && l.mute === false;
  });
  assert.is((await post('/layers/1/effects/add', { type: 'hue_shift' })).status, 200);
  await frame({ [CH.lp1]: 51 });
  await until(async () => Math.abs((await get('/layers/1/effects/1')).inputs.find((i: any) => i.name === 'shift').value - 0.2) < 1e-6);
  assert.is((await post('/layers/1/effects/remove', { index: 1 })).status, 200);
});

test('scene recall: the n-th scene of GET /scenes comes back', async () => {
  const saved = await post('/scenes/save', { name: 'Full' });
  assert.is(saved.status, 200, saved.text);
  const n = (await get('/scenes')).scenes.findIndex((sc: any) => sc.name === 'Full') + 1;
  assert.is((await post('/layers/opacity', { layer: 1, value: 0.5 })).status, 200);
  await frame({ [CH.scene]: n });
  await until(async () => (await get('/layers')).layers[0].opacity === 1);
  await frame({ [CH.scene]: 0 });
});

test('take uses the transition type and duration channels', async () => {
  assert.is((await post('/mix/cue', { id: 'source:plasma' })).status, 200);
  const types = (await get('/transitions')).items.map((t: any) => t.type);
  const fade = types.indexOf('fade') + 1;
  await frame({ [CH.tType]: fade, [CH.tDuration]: 5, [CH.take]: 0 });
  await frame({ [CH.take]: 255 });
  await until(async () => {
    const m = await get('/mix');
    return m.program?.id === 'source:plasma' && m.transition.type === 'fade' && m.transition.durationMs === 200;
  });
  await frame({ [CH.take]: 0 });
});

test('the cue GO and back channels fire the cue list on a rising edge', async () => {
  const p = await get('/dmx/personality');
  const go = p.channels.find((c: any) => c.name === 'cue GO').channel - ADDRESS;
  const back = p.channels.find((c: any) => c.name === 'cue back').channel - ADDRESS;
  for (const name of ['Desk One', 'Desk Two']) assert.is((await post('/cues/add', { name })).status, 200);
  await frame({ [go]: 255 });
  await until(async () => (await get('/cues')).current?.name === 'Desk One');
  await frame({ [go]: 0 });
  await frame({ [go]: 255 });
  await until(async () => (await get('/cues')).current?.name === 'Desk Two');
  await frame({ [go]: 0, [back]: 255 });
  await until(async () => (await get('/cues')).current?.name === 'Desk One');
  await frame({ [back]: 0 });
});

test('truncated, oversized, wrong-length and wrong-universe packets change nothing and are counted', async () => {
  const before = await dmx();
  const dimmer = (await get('/global')).dimmer;
  const bad = Buffer.from(slots);
  bad[ADDRESS - 1 + CH.dimmer] = 7;
  const good = artDmx(UNIVERSE, bad);
  await desk.send(good.subarray(0, 30), port);
  await desk.send(Buffer.concat([good, Buffer.alloc(200)]), port);
  const lying = Buffer.from(good);
  lying.writeUInt16BE(100, 16);
  await desk.send(lying, port);
  await desk.send(artDmx(UNIVERSE + 1, bad), port);
  await until(async () => {
    const d = await dmx();
    return d.malformed >= before.malformed + 3 && d.wrongUniverse >= before.wrongUniverse + 1;
  });
  // A valid frame after them applies, so the bad ones were read before it and did nothing.
  await applied({ [CH.tap]: 0 });
  assert.is((await get('/global')).dimmer, dimmer);
  assert.is((await dmx()).frames, before.frames + 1);
});

test('the dmx events topic carries the receiver activity to its subscribers', async () => {
  const c = await connectWs(wsUrl(s.base));
  try {
    await c.next((m) => m.type === 'hello', 20_000);
    c.send({ type: 'subscribe', topics: ['dmx'] });
    const confirmed = await c.next((m) => m.type === 'subscribed', 20_000);
    const frames = (await dmx()).frames;
    await frame({ [CH.dimmer]: 90 });
    await c.next((m) => m.type === 'event' && m.topic === 'dmx' && m.seq > confirmed.seq && m.data.frames > frames, 20_000);
  } finally {
    c.close();
  }
});

test('signal loss with lossAction hold keeps the state', async () => {
  await applied({ [CH.dimmer]: 64 });
  await until(async () => (await get('/global')).dimmer === 64 / 255);
  await until(async () => (await dmx()).loss === true);
  const g = await get('/global');
  assert.equal([g.dimmer, g.blackout], [64 / 255, false]);
  await applied({ [CH.dimmer]: 65 });
  await until(async () => (await dmx()).loss === false && (await get('/global')).dimmer === 65 / 255);
});

test.run();
