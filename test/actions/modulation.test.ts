// Modulation actions over real HTTP and the events socket (as Companion sends a button press): listed under
// Modulation; freeze, release and toggle change GET /modulation as POST /modulation/freeze does, and a frozen LFO
// holds the output still until it is released.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, sampleOutput, startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

let s: TestServer;

test.before(async () => {
  s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  assert.equal((await api('POST', '/sources/select', { id: 'source:solid_color' })).status, 200);
  assert.equal((await api('POST', '/effects/add', { type: 'brightness_contrast' })).status, 200);
});
test.after(async () => {
  await s?.cleanup();
});

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 20_000 });
  return { status: r.status, body: r.json() };
};
const run = async (id: string): Promise<any> => {
  const r = await api('POST', `/actions/${id}`);
  assert.equal(r.status, 200, `${id}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.action.id, id);
  return r.body.result;
};
const modulation = async () => (await api('GET', '/modulation')).body;
const frames = async (): Promise<number> => (await api('GET', '/status')).body.render.frames;
/** Waits until the output has drawn at least `n` more frames. */
async function afterFrames(n: number): Promise<void> {
  const f0 = await frames();
  await waitUntil(async () => (await frames()) >= f0 + n, 30_000, 50);
}
const green = async (): Promise<number> => (await sampleOutput(s.base, [[0.5, 0.5]]))[0]![1]!;
/** Distinct green values of the output over `n` samples, each after a few more frames. */
async function greens(n: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    await afterFrames(3);
    seen.add(await green());
  }
  return seen;
}

test('the modulation actions are listed under Modulation', async () => {
  const items: Array<{ id: string; category: string }> = (await api('GET', '/actions')).body.items;
  assert.equal(
    items.filter((a) => a.category === 'Modulation').map((a) => a.id),
    ['modulation.freeze', 'modulation.release', 'modulation.toggle'],
  );
});

test('freeze, release and toggle answer {frozen} and change GET /modulation', async () => {
  assert.equal(await modulation(), { frozen: false, count: 0 });
  assert.equal(await run('modulation.freeze'), { frozen: true });
  assert.equal(await modulation(), { frozen: true, count: 0 });
  // Freeze is idempotent: pressing it again keeps it frozen.
  assert.equal(await run('modulation.freeze'), { frozen: true });
  assert.equal(await run('modulation.release'), { frozen: false });
  assert.equal((await modulation()).frozen, false);
  assert.equal(await run('modulation.toggle'), { frozen: true });
  assert.equal((await modulation()).frozen, true);
  assert.equal(await run('modulation.toggle'), { frozen: false });
  assert.equal((await modulation()).frozen, false);
});

test('a frozen LFO holds the output still; released, it moves again (actions over the events socket)', async () => {
  const set = await api('POST', '/effects/modulate', {
    index: 1,
    input: 'brightness',
    modulator: { kind: 'lfo', shape: 'sine', rate: 1, amount: 0.15 },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  // Running: the output takes several values.
  await waitUntil(async () => (await greens(4)).size >= 3, 60_000, 0);
  const ws = await connectWs(wsUrl(s.base));
  try {
    await ws.next((m) => m.type === 'hello', 20_000);
    ws.send({ type: 'request', id: 'freeze', method: 'POST', path: '/api/v1/actions/modulation.toggle' });
    const frozen = await ws.next((m) => m.type === 'response' && m.id === 'freeze', 20_000);
    assert.equal(frozen.status, 200);
    assert.equal(frozen.body.result, { frozen: true });
    assert.equal(await modulation(), { frozen: true, count: 1 });
    // The frame drawn when the freeze landed may be either side of it; every one after is the same.
    await afterFrames(3);
    assert.equal((await greens(5)).size, 1, 'the frozen output does not move');
    ws.send({ type: 'request', id: 'release', method: 'POST', path: '/api/v1/actions/modulation.release' });
    const released = await ws.next((m) => m.type === 'response' && m.id === 'release', 20_000);
    assert.equal(released.body.result, { frozen: false });
  } finally {
    ws.close();
  }
  await waitUntil(async () => (await greens(4)).size >= 3, 60_000, 0);
});

test.run();
