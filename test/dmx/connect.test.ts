// A desk connecting (its first frame) and returning after a loss with lossAction black, against a real server: the
// frame of a desk with the dimmer up and every other channel at 0 leaves a paused clip where it is and the layer's
// opacity as set over HTTP; after a loss the returning frame acts only where it changed, and its blackout channel
// acts, so HTTP changes made meanwhile stay; a position channel's 0 is "no change".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip } from '../helpers/colour-clip.js';
import { artDmx, udpSender, type UdpSender } from '../helpers/dmx.js';
import { freeUdpPort } from '../helpers/osc.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const FPS = 25;
const UNIVERSE = 1;
// The master block, then layer 1's block (no parameter channels).
const CH = { dimmer: 0, blackout: 1, opacity: 10, position: 15 };

let s: TestServer;
let work = '';
let port = 0;
let desk: UdpSender;
const slots = new Uint8Array(512);
const api = (p: string): string => `${s.base}/api/v1${p}`;
const post = async (p: string, body: unknown = {}) => {
  const r = await req('POST', api(p), { body, timeoutMs: 20000 });
  assert.ok(r.status < 300, `${p}: ${r.status} ${r.text}`);
};
const get = async (p: string) => (await req('GET', api(p), { timeoutMs: 15000 })).json();
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 20_000, 50);
const position = async (): Promise<number> => (await get('/transport')).program.positionS;
const opacity = async (): Promise<number> => (await get('/layers')).layers[0].opacity;
const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1 / FPS + 1e-6;

/** Sets channels and sends the universe, then waits until the receiver has made that frame's requests. */
async function frame(values: Record<number, number>): Promise<void> {
  const before = (await get('/dmx')).applyMs.count;
  for (const [k, v] of Object.entries(values)) slots[Number(k)] = v;
  await desk.send(artDmx(UNIVERSE, slots), port);
  await until(async () => (await get('/dmx')).applyMs.count > before);
}

/** Seeks the paused clip over HTTP and returns where it settled. */
async function seek(positionS: number): Promise<number> {
  await post('/transport/seek', { positionS });
  await until(async () => near(await position(), positionS));
  return position();
}

test.before(async () => {
  work = await tempDir('vjd-dmx-connect-');
  const media = join(work, 'media');
  await mkdir(media);
  await makeColourClip(media, 'Colours', FPS);
  port = await freeUdpPort();
  desk = await udpSender();
  s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      render: { width: 96, height: 72, fps: FPS },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
      dmx: {
        enabled: true,
        universe: UNIVERSE,
        port,
        lossMs: 800,
        lossAction: 'black',
        personality: { layers: 1, params: 0 },
      },
    },
  });
  await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.name === 'Colours'), 30000);
  const clip = (await get('/sources')).items.find((i: any) => i.name === 'Colours');
  await post('/sources/select', { id: clip.id });
  await until(async () => (await get('/transport')).program?.positionS !== undefined);
  await post('/transport/pause');
  await until(async () => (await get('/transport')).program.state === 'paused');
});

test.after(async () => {
  desk?.close();
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test("a desk's first frame applies its levels and leaves the clip position and a zero opacity alone", async () => {
  const at = await seek(3.07);
  await post('/layers/opacity', { layer: 1, value: 0.7 });
  await frame({ [CH.dimmer]: 255 });
  assert.is((await get('/global')).dimmer, 1);
  assert.ok(near(await position(), at), `position ${await position()}, was ${at}`);
  assert.is(await opacity(), 0.7);
  assert.is((await get('/transport')).program.state, 'paused');
});

test('after a loss with lossAction black the returning frame lifts the blackout and undoes no HTTP change', async () => {
  const v = Math.round((1 / 6) * 65534) + 1;
  await frame({ [CH.opacity]: 255, [CH.position]: v >> 8, [CH.position + 1]: v & 0xff });
  await until(async () => near(await position(), 1) && (await opacity()) === 1);
  const losses = (await get('/dmx')).losses;
  await until(async () => (await get('/dmx')).loss === true && (await get('/global')).blackout === true);
  const at = await seek(2);
  await post('/layers/opacity', { layer: 1, value: 0.6 });
  await post('/global/dimmer', { value: 0.5 });
  // The desk comes back as if restarted, its position at 0: no change, as the unchanged channels are.
  await frame({ [CH.position]: 0, [CH.position + 1]: 0 });
  const g = await get('/global');
  assert.equal([g.blackout, g.dimmer, (await get('/dmx')).losses], [false, 0.5, losses + 1]);
  assert.ok(near(await position(), at), `position ${await position()}, was ${at}`);
  assert.is(await opacity(), 0.6);
});

test("the position channel's 0 is no change; 1..65535 seeks over the clip", async () => {
  const v = Math.round((1 / 6) * 65534) + 1;
  await frame({ [CH.position]: v >> 8, [CH.position + 1]: v & 0xff });
  await until(async () => near(await position(), 1));
  const at = await seek(4);
  // A changed dimmer in the same frame makes it a frame with requests, so its end can be waited for.
  await frame({ [CH.position]: 0, [CH.position + 1]: 0, [CH.dimmer]: 128 });
  assert.is((await get('/global')).dimmer, 128 / 255);
  assert.ok(near(await position(), at), `position ${await position()}, was ${at}`);
});

test.run();
