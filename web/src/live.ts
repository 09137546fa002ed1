// Live state: the events WebSocket (issue 18's protocol: auth as the first message, hello with every topic, then
// full-state events). A server without the socket (an older build) is read with GETs instead: after each of this
// page's own changes and once a second, which is the only polling the page ever does.
import { call, getKey } from './api';
import { live, notify, update, type LiveState } from './store';

const TOPICS = ['source', 'mix', 'chain', 'params', 'generator', 'palette', 'global', 'outputs', 'library', 'status', 'thumbnail'];
const FALLBACK_MS = 1000;

let ws: WebSocket | null = null;
let retryMs = 500;
let fallbackTimer: ReturnType<typeof setInterval> | undefined;
let stopped = false;
let pending = 0;

/** Applies one topic's new full state. */
function apply(topic: string, data: any): void {
  const now = performance.now();
  switch (topic) {
    case 'source':
      return update({ source: data, lastEventAt: now });
    case 'mix':
      return update({ mix: data, lastEventAt: now });
    case 'chain':
      return update({ chain: data, lastEventAt: now });
    case 'params':
      return update({ params: data, lastEventAt: now });
    case 'generator':
      return update({ generator: data, generatorVersion: live().generatorVersion + 1, lastEventAt: now });
    case 'palette':
      return update({ palette: data, lastEventAt: now });
    case 'global':
      return update({ global: data, lastEventAt: now });
    case 'outputs':
      update({ outputs: data, lastEventAt: now });
      return void refreshRecordings();
    case 'library':
      return update({ libraryVersion: live().libraryVersion + 1, lastEventAt: now });
    case 'status':
      return update({ status: { ...live().status, ...data } });
    case 'thumbnail':
      if (data && typeof data.url === 'string') update({ thumbs: { ...live().thumbs, [data.url]: String(data.etag ?? '') } });
      return;
  }
}

/** Lists that no topic carries: read once at start and after the changes that alter them. */
export async function refreshLists(): Promise<void> {
  const [palettes, actions, catalog, transitions] = await Promise.all([
    call('GET', '/palettes'),
    call('GET', '/actions'),
    call('GET', '/effects/available'),
    call('GET', '/transitions'),
  ]);
  const patch: Partial<LiveState> = {};
  if (palettes.ok) patch.palettes = palettes.body.items;
  if (actions.ok) patch.actions = actions.body.items;
  if (catalog.ok) patch.catalog = catalog.body.items;
  if (transitions.ok) patch.transitions = transitions.body.items;
  update(patch);
  await refreshRecordings();
}

export async function refreshRecordings(): Promise<void> {
  const r = await call('GET', '/recordings');
  if (r.ok) update({ recordings: r.body.items });
}

/** Every topic read over HTTP: the start before the socket's hello, and the fallback. */
export async function snapshot(): Promise<void> {
  const [status, source, mix, chain, palette, global, outputs] = await Promise.all([
    call('GET', '/status'),
    call('GET', '/sources/current'),
    call('GET', '/mix'),
    call('GET', '/effects'),
    call('GET', '/palettes/current'),
    call('GET', '/global'),
    call('GET', '/outputs'),
  ]);
  const patch: Partial<LiveState> = {};
  if (status.ok) patch.status = status.body;
  if (source.ok) patch.source = source.body;
  if (mix.ok) patch.mix = mix.body;
  if (chain.ok) patch.chain = chain.body;
  if (palette.ok) patch.palette = palette.body;
  if (global.ok) patch.global = global.body;
  if (outputs.ok) {
    patch.outputs = outputs.body;
    // An output that stopped may have finished a recording: no topic carries the list.
    if (JSON.stringify(outputs.body) !== JSON.stringify(live().outputs)) void refreshRecordings();
  }
  patch.lastEventAt = performance.now();
  update(patch);
}

/** After a change made by this page: in fallback mode read the state back at once (the socket pushes it otherwise). */
export function changed(): void {
  if (live().link === 'fallback' && pending === 0) {
    pending++;
    void snapshot().finally(() => pending--);
  }
}

function startFallback(): void {
  if (fallbackTimer !== undefined) return;
  update({ link: 'fallback' });
  fallbackTimer = setInterval(() => {
    if (document.visibilityState === 'visible' && pending === 0) {
      pending++;
      void snapshot().finally(() => pending--);
    }
  }, FALLBACK_MS);
}

export function connect(): void {
  stopped = false;
  ws?.close();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/events`;
  let hello = false;
  const sock = new WebSocket(url);
  ws = sock;
  update({ link: live().link === 'fallback' ? 'fallback' : 'connecting' });
  sock.onopen = () => {
    // Browsers cannot set headers on the upgrade: the key goes in the first message, never in the URL.
    const key = getKey();
    if (key !== '') sock.send(JSON.stringify({ type: 'auth', key }));
    sock.send(JSON.stringify({ type: 'subscribe', topics: TOPICS }));
  };
  sock.onmessage = (ev) => {
    let msg: any;
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (msg.type === 'hello') {
      hello = true;
      retryMs = 500;
      clearInterval(fallbackTimer);
      fallbackTimer = undefined;
      const st = msg.state ?? {};
      const patch: Partial<LiveState> = { link: 'live', lastEventAt: performance.now() };
      for (const t of ['source', 'mix', 'chain', 'params', 'generator', 'palette', 'global', 'outputs'] as const) if (t in st) (patch as any)[t] = st[t];
      if ('generator' in st) patch.generatorVersion = live().generatorVersion + 1;
      update(patch);
    } else if (msg.type === 'event') {
      apply(String(msg.topic), msg.data);
    } else if (msg.type === 'error') {
      notify(`events: ${msg.code}: ${msg.message}`);
    }
  };
  sock.onclose = (ev) => {
    if (ws !== sock || stopped) return;
    ws = null;
    if (ev.code === 4401) {
      update({ needKey: true, keyError: 'The events socket refused the key.' });
      return;
    }
    if (!hello) {
      // No socket here (404 on the upgrade) or it went away before greeting: read over HTTP meanwhile.
      startFallback();
      retryMs = Math.min(retryMs * 2, 30000);
    } else {
      update({ link: 'connecting' });
      void snapshot();
      retryMs = 500;
    }
    setTimeout(() => {
      if (!stopped && ws === null) connect();
    }, retryMs);
  };
}

export function disconnect(): void {
  stopped = true;
  ws?.close();
  ws = null;
  clearInterval(fallbackTimer);
  fallbackTimer = undefined;
}
