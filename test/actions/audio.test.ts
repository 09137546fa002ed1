// Audio actions over real HTTP and the events socket (as Companion sends a button press): listed under Audio, they
// select an input or none like POST /audio/select.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl } from '../helpers/ws.js';

let s: TestServer;

test.before(async () => {
  s = await startServer({
    config: {
      audio: { inputs: [{ id: 'low', name: 'Tone 80 Hz', kind: 'test', source: 'sine=frequency=80:sample_rate=48000' }], input: null },
    },
  });
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

test('the audio actions are listed under Audio', async () => {
  const items: Array<{ id: string; name: string; category: string }> = (await api('GET', '/actions')).body.items;
  assert.equal(
    items.filter((a) => a.category === 'Audio').map((a) => [a.id, a.name]),
    [
      ['audio.low', 'Audio: Tone 80 Hz'],
      ['audio.none', 'Audio Off'],
    ],
  );
});

test('audio actions select an input and none, over HTTP and the events socket', async () => {
  assert.equal((await run('audio.low')).current, 'low');
  await waitUntil(async () => (await api('GET', '/audio')).body.state === 'running', 30_000, 100);
  assert.equal((await api('GET', '/audio')).body.current, 'low');
  const ws = await connectWs(wsUrl(s.base));
  try {
    await ws.next((m) => m.type === 'hello', 20_000);
    ws.send({ type: 'request', id: 'off', method: 'POST', path: '/api/v1/actions/audio.none' });
    const answer = await ws.next((m) => m.type === 'response' && m.id === 'off', 20_000);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.result, { current: null });
  } finally {
    ws.close();
  }
  assert.equal((await api('GET', '/audio')).body.current, null);
  const unknown = await api('POST', '/actions/audio.nope');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, 'ITEM_NOT_FOUND');
});

test.run();
