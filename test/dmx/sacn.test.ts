// sACN (E1.31) data packets against a real server listening on every address without dmx.allowRemote: loopback
// frames act, a frame from another host address is refused and counted, bad E1.31 layers change nothing, and signal
// loss with lossAction black blacks out until the desk's frames return (a stream-terminated packet is a loss too).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { networkInterfaces } from 'node:os';
import { sacnData, udpSender, type UdpSender } from '../helpers/dmx.js';
import { freeUdpPort } from '../helpers/osc.js';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

const UNIVERSE = 7;
const DIMMER = 0;
const BLACKOUT = 1;

let s: TestServer;
let port = 0;
let desk: UdpSender;
const slots = new Uint8Array(512);
const remoteAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
const api = (p: string): string => `${s.base}/api/v1${p}`;
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);

async function frame(values: Record<number, number>, opts: { terminated?: boolean } = {}): Promise<void> {
  for (const [k, v] of Object.entries(values)) slots[Number(k)] = v;
  await desk.send(sacnData(UNIVERSE, slots, opts), port);
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
        host: '0.0.0.0',
        port,
        lossMs: 600,
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

test('sACN frames drive the dimmer; another universe and bad layers change nothing', async () => {
  await frame({ [DIMMER]: 51 });
  await until(async () => (await get('/global')).dimmer === 0.2);
  const before = await get('/dmx');
  const other = Buffer.from(slots);
  other[DIMMER] = 255;
  await desk.send(sacnData(UNIVERSE + 1, other), port);
  const badRoot = sacnData(UNIVERSE, other);
  badRoot.writeUInt16BE(0x7000 | 5, 16);
  await desk.send(badRoot, port);
  const badStart = sacnData(UNIVERSE, other);
  badStart.writeUInt16BE(400, 123);
  await desk.send(badStart, port);
  await desk.send(sacnData(UNIVERSE, other).subarray(0, 100), port);
  await until(async () => {
    const d = await get('/dmx');
    return d.wrongUniverse >= before.wrongUniverse + 1 && d.malformed >= before.malformed + 3;
  });
  await frame({ [BLACKOUT]: 0 });
  await until(async () => (await get('/dmx')).frames === before.frames + 1);
  assert.is((await get('/global')).dimmer, 0.2);
});

(remoteAddress ? test : test.skip)('a frame from another host address is refused without dmx.allowRemote', async () => {
  const remote = await udpSender(remoteAddress!);
  try {
    const before = await get('/dmx');
    const loud = Buffer.from(slots);
    loud[DIMMER] = 255;
    await remote.send(sacnData(UNIVERSE, loud), port, remoteAddress!);
    await until(async () => (await get('/dmx')).remoteRefused === before.remoteRefused + 1);
    // The same frame from loopback acts: the refusal was the sender's address, nothing else.
    await frame({ [DIMMER]: 102 });
    await until(async () => (await get('/global')).dimmer === 0.4);
    assert.is((await get('/dmx')).lastSource, '127.0.0.1');
  } finally {
    remote.close();
  }
});
if (!remoteAddress) console.log('not run: DMX from another host address (this machine has no non-loopback IPv4 address)');

test('signal loss with lossAction black blacks out; the returning frames decide again', async () => {
  await frame({ [DIMMER]: 255, [BLACKOUT]: 0 });
  await until(async () => (await get('/global')).dimmer === 1);
  await until(async () => (await get('/dmx')).loss === true);
  await until(async () => (await get('/global')).blackout === true);
  await frame({});
  await until(async () => (await get('/dmx')).loss === false && (await get('/global')).blackout === false);
  // The only source ending its stream is a loss at once.
  const losses = (await get('/dmx')).losses;
  await frame({}, { terminated: true });
  await until(async () => (await get('/dmx')).losses === losses + 1 && (await get('/global')).blackout === true);
  await frame({});
  await until(async () => (await get('/global')).blackout === false);
});

test.run();
