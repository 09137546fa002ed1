// Sockets waiting to authenticate over a real server: a flood of key-less sockets from other addresses, kept up
// by loops for the whole test, neither locks out a client that authenticates with its first message (as a
// browser must) nor holds more than its share of places; a newcomer evicts the oldest waiting socket.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { startServer, waitUntil, type TestServer } from '../helpers/server.js';
import { connectWs, wsUrl, type WsClient } from '../helpers/ws.js';

const KEY = 'pending-test-key-0b7e55';
const LOOPS = 40;
/** Loopback addresses the flood comes from (the legitimate client uses 127.0.0.1). */
const FLOOD_ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
let s: TestServer;
let url: string;

test.before(async () => {
  s = await startServer({ config: { server: { apiKey: KEY } } });
  url = wsUrl(s.base);
});
test.after(async () => {
  await s.cleanup();
});

interface Flood {
  opened: number;
  evicted: number;
  stop(): Promise<void>;
}

/** Each loop opens a key-less socket, waits for the server to close it, and opens the next, until stopped. */
function flood(addresses: string[], loops: number): Flood {
  let running = true;
  const live = new Set<WebSocket>();
  const stats = { opened: 0, evicted: 0 };
  const one = (localAddress: string) =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(url, { localAddress });
      live.add(ws);
      ws.on('open', () => stats.opened++);
      ws.on('error', () => undefined);
      ws.on('close', (code) => {
        // Closed for want of a place: evicted (or, before waiting sockets could be displaced, refused).
        if (code === 4429) stats.evicted++;
        live.delete(ws);
        resolve();
      });
    });
  const runs = Array.from({ length: loops }, async (_, i) => {
    while (running) await one(addresses[i % addresses.length]!);
  });
  return {
    get opened() {
      return stats.opened;
    },
    get evicted() {
      return stats.evicted;
    },
    async stop() {
      running = false;
      for (const ws of live) ws.terminate();
      await Promise.all(runs);
    },
  };
}

/** A browser-like client: no header, the key as its first message; true when it got its hello. */
async function browserClient(): Promise<{ ok: boolean; detail: string }> {
  let c: WsClient;
  try {
    c = await connectWs(url);
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
  c.send({ type: 'auth', key: KEY });
  const outcome = await Promise.race([
    c.next((m) => m.type === 'hello', 60000).then(() => 'hello'),
    c.closed.then((x) => `closed ${x.code} ${x.reason}`),
  ]);
  c.ws.terminate();
  return { ok: outcome === 'hello', detail: outcome };
}

test('a flood of waiting sockets from other addresses: a client authenticating by its first message gets in 10 times of 10', async () => {
  const f = flood(FLOOD_ADDRESSES, LOOPS);
  try {
    // The flood has filled the places and is evicting its own sockets before the first try.
    await waitUntil(() => f.evicted >= LOOPS, 60000, 50);
    const results: string[] = [];
    for (let i = 0; i < 10; i++) {
      const before = f.evicted;
      const r = await browserClient();
      results.push(r.detail);
      // The flood kept going during the try.
      await waitUntil(() => f.evicted > before, 60000, 20);
    }
    assert.equal(
      results.filter((r) => r !== 'hello'),
      [],
      `outcomes: ${results.join('; ')}`,
    );
  } finally {
    await f.stop();
  }
});

test('one address holds at most its share: its own oldest socket is evicted, the rest of the places stay free', async () => {
  const sockets: WsClient[] = [];
  for (let i = 0; i < 6; i++) sockets.push(await connectWs(url));
  // The first two were evicted for the four newer ones (its share), with a reason saying why.
  for (const c of sockets.slice(0, 2)) {
    const closed = await c.closed;
    assert.is(closed.code, 4429);
    assert.match(closed.reason, /newer connection/);
  }
  // The four newest are still waiting, and a client of the same address that authenticates at once is admitted.
  for (const c of sockets.slice(2)) assert.is(c.ws.readyState, WebSocket.OPEN);
  const late = await browserClient();
  assert.is(late.detail, 'hello');
  for (const c of sockets) c.ws.terminate();
});

test.run();
