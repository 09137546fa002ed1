// sACN sources against a real server, as E1.31 asks of a receiver: each source (CID) has its own sequence and a
// late packet is dropped; the highest priority holds the universe; a source that ends its stream or goes silent
// leaves on its own and only the last one leaving is signal loss; the end of a stream never heard changes nothing;
// sources past the limit are ignored and counted. Each test uses its own CIDs and ends with none left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DMX_LIMITS } from '../../src/limits.js';
import { sacnData, udpSender, type SacnOptions, type UdpSender } from '../helpers/dmx.js';
import { freeUdpPort } from '../helpers/osc.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

const UNIVERSE = 5;
const LOSS_MS = 1000;
const DIMMER = 0;
const BPM = 3;

let s: TestServer;
let port = 0;
let desk: UdpSender;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const dmx = () => get('/dmx');
const dimmer = async (): Promise<number> => (await get('/global')).dimmer;
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);
/** The CID sacnData writes for a desk: its first byte, then 2 to 16. */
const cidHex = (cid: number): string => Buffer.from([cid, ...Array.from({ length: 15 }, (_, k) => k + 2)]).toString('hex');

/** Each desk's universe, as it sends it every frame. */
const universes = new Map<number, Uint8Array>();
async function send(cid: number, values: Record<number, number> = {}, opts: SacnOptions = {}): Promise<void> {
  const slots = universes.get(cid) ?? new Uint8Array(64);
  universes.set(cid, slots);
  for (const [k, v] of Object.entries(values)) slots[Number(k)] = v;
  await desk.send(sacnData(UNIVERSE, slots, { ...opts, cid }), port);
}

/** Ends the desks' streams and waits for the loss (and its blackout) that the last one leaving causes. */
async function endAll(cids: number[]): Promise<void> {
  for (const cid of cids) await send(cid, {}, { terminated: true });
  await until(async () => (await dmx()).loss === true && (await get('/global')).blackout === true);
  assert.equal((await dmx()).sources, []);
}

test.before(async () => {
  port = await freeUdpPort();
  desk = await udpSender();
  s = await startServer({
    config: {
      render: { width: 64, height: 48, fps: 20 },
      dmx: {
        enabled: true,
        protocol: 'sacn',
        universe: UNIVERSE,
        port,
        lossMs: LOSS_MS,
        lossAction: 'black',
        personality: { layers: 0, params: 0 },
      },
    },
  });
});

test.after(async () => {
  desk?.close();
  await s?.cleanup();
});

test('a packet behind its source by fewer than 20 is dropped; each source counts on its own', async () => {
  await send(10, { [DIMMER]: 51 }, { sequence: 50 });
  await until(async () => (await dimmer()) === 0.2);
  const before = await dmx();
  await send(10, { [DIMMER]: 102 }, { sequence: 45 });
  await until(async () => (await dmx()).outOfSequence === before.outOfSequence + 1 || (await dimmer()) !== 0.2);
  assert.is(await dimmer(), 0.2);
  // Another CID has a sequence of its own, and the count wraps from 255 to 0.
  await send(11, { [DIMMER]: 102 }, { sequence: 45 });
  await send(10, { [DIMMER]: 153 }, { sequence: 255 });
  await send(10, { [DIMMER]: 204 }, { sequence: 0 });
  await until(async () => (await dimmer()) === 0.8);
  assert.is((await dmx()).outOfSequence, before.outOfSequence + 1);
  await endAll([10, 11]);
});

test('the highest priority holds the universe; when it ends its stream the next takes over without a loss', async () => {
  const losses = (await dmx()).losses;
  await send(20, { [DIMMER]: 51 }, { priority: 200 });
  await until(async () => (await dimmer()) === 0.2 && (await get('/global')).blackout === false);
  await send(21, { [DIMMER]: 204 }, { priority: 10 });
  await until(async () => (await dmx()).sources?.length === 2 || (await dimmer()) !== 0.2);
  assert.is(await dimmer(), 0.2);
  const sources = (await dmx()).sources;
  assert.equal(
    sources.map((x: any) => [x.cid, x.priority, x.active, x.address]),
    [
      [cidHex(20), 200, true, '127.0.0.1'],
      [cidHex(21), 10, false, '127.0.0.1'],
    ],
  );
  assert.is(sources[0].name, 'vjd test desk');
  // E1.31 priorities end at 200: a higher one is a broken packet.
  const malformed = (await dmx()).malformed;
  await send(22, { [DIMMER]: 255 }, { priority: 201 });
  await until(async () => (await dmx()).malformed === malformed + 1);
  await send(20, {}, { terminated: true });
  await until(async () => (await dimmer()) === 0.8);
  const d = await dmx();
  assert.equal([d.loss, d.losses, d.sources.map((x: any) => [x.cid, x.active])], [false, losses, [[cidHex(21), true]]]);
  await endAll([21]);
  assert.is((await dmx()).losses, losses + 1);
});

test('the end of a stream from a source never heard changes nothing', async () => {
  const losses = (await dmx()).losses;
  await send(30, { [DIMMER]: 51 });
  await until(async () => (await dimmer()) === 0.2 && (await get('/global')).blackout === false);
  await send(31, {}, { terminated: true });
  // A later change from the desk proves the terminated packet was read first.
  await send(30, { [BPM]: 0x40 });
  await until(async () => Math.abs((await get('/tempo')).bpm - (20 + (0x4000 / 65535) * 280)) < 0.01);
  const d = await dmx();
  assert.equal([d.loss, d.losses, (await get('/global')).blackout], [false, losses, false]);
  await endAll([30]);
});

test('a silent source leaves after the loss time on its own; the next one takes over without a loss', async () => {
  const losses = (await dmx()).losses;
  await send(40, { [DIMMER]: 51 }, { priority: 150 });
  await until(async () => (await dimmer()) === 0.2 && (await get('/global')).blackout === false);
  // Taken before the silent source's last packet, so the wait below is at least the loss time by construction.
  const lastHeard = Date.now();
  await send(40, {}, { priority: 150 });
  let tookOver = 0;
  await until(async () => {
    await send(41, { [DIMMER]: 153 }, { priority: 100 });
    if ((await dimmer()) !== 0.6) return false;
    tookOver = Date.now();
    return true;
  });
  assert.ok(tookOver - lastHeard >= LOSS_MS, `the lower priority took over ${tookOver - lastHeard} ms after the higher one's last packet`);
  const d = await dmx();
  assert.equal([d.loss, d.losses, d.sources.map((x: any) => x.cid)], [false, losses, [cidHex(41)]]);
  await endAll([41]);
});

test('sources past the limit are ignored and counted until one leaves', async () => {
  const before = await dmx();
  const cids = Array.from({ length: DMX_LIMITS.sacnSourcesMax }, (_, k) => 50 + k);
  for (const cid of cids) await send(cid, { [DIMMER]: 51 });
  await until(async () => (await dmx()).sources?.length === cids.length);
  const extra = 50 + cids.length;
  await send(extra, { [DIMMER]: 255 });
  await until(async () => (await dmx()).sourcesIgnored === before.sourcesIgnored + 1);
  assert.is(await dimmer(), 0.2);
  // Room again once one has left: the new source is tracked (at equal priority the earliest keeps the universe).
  await send(cids[0]!, {}, { terminated: true });
  await send(extra, { [DIMMER]: 255 });
  await until(async () => (await dmx()).sources.some((x: any) => x.cid === cidHex(extra)));
  assert.is(await dimmer(), 0.2);
  await endAll([...cids.slice(1), extra]);
});

test.run();
