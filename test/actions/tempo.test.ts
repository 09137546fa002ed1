// Tempo actions over real HTTP and the events socket (as Companion sends a button press): listed under Tempo,
// half / double / tap / resync act on the clock and answer GET /tempo's view.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, sleep, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

let s: TestServer;

test.before(async () => {
  s = await startServer();
});
test.after(async () => {
  await s.cleanup();
});

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const r = await req(method, `${s.base}/api/v1${path}`, { body, timeoutMs: 15000 });
  return { status: r.status, body: r.json() };
};
const run = async (id: string): Promise<any> => {
  const r = await api('POST', `/actions/${id}`);
  assert.equal(r.status, 200, `${id}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.action.id, id);
  return r.body.result;
};

test('the tempo actions are listed under Tempo', async () => {
  const items: Array<{ id: string; category: string }> = (await api('GET', '/actions')).body.items;
  assert.equal(
    items.filter((a) => a.category === 'Tempo').map((a) => a.id),
    ['tempo.tap', 'tempo.resync', 'tempo.half', 'tempo.double', 'tempo.auto'],
  );
});

test('half and double act on the tempo and answer it', async () => {
  assert.equal((await api('POST', '/tempo/bpm', { bpm: 130 })).status, 200);
  assert.equal((await run('tempo.double')).bpm, 260);
  assert.equal((await api('GET', '/tempo')).body.bpm, 260);
  assert.equal((await run('tempo.half')).bpm, 130);
  assert.equal((await api('GET', '/tempo')).body.bpm, 130);
});

test('taps through the action over the events socket set a tap tempo; resync answers the view', async () => {
  const ws = await connectWs(wsUrl(s.base));
  try {
    await ws.next((m) => m.type === 'hello', 20_000);
    for (let i = 0; i < 5; i++) {
      ws.send({ type: 'request', id: `tap${i}`, method: 'POST', path: '/api/v1/actions/tempo.tap' });
      const answer = await ws.next((m) => m.type === 'response' && m.id === `tap${i}`, 20_000);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.result.source, 'tap');
      await sleep(300);
    }
  } finally {
    ws.close();
  }
  const t = (await api('GET', '/tempo')).body;
  assert.equal(t.source, 'tap');
  assert.ok(t.bpm !== 130 && t.bpm >= 20 && t.bpm <= 300, `bpm ${t.bpm}`);
  const resynced = await run('tempo.resync');
  assert.equal(resynced.source, 'tap');
  assert.ok(Number.isInteger(resynced.beat) && resynced.phase >= 0 && resynced.phase <= 1);
});

test('auto hands the clock back to the tracker after taps', async () => {
  assert.equal((await api('GET', '/tempo')).body.source, 'tap');
  assert.equal((await run('tempo.auto')).source, 'auto');
  assert.equal((await api('GET', '/tempo')).body.source, 'auto');
});

test.run();
