// Live state: the events WebSocket (auth as the first message, a hello with the state of its topics, then full-state
// events). The subscription is the hello's own topic list plus the opt-in ones the page shows. A server without the
// socket (an older build) is read with GETs instead: after each of this page's own changes and once a second, which is
// the only polling the page ever does.
import { getKey } from './api';
import { merge } from './merge';
import { refreshRecordings, snapshot } from './reads';
import { live, notify, update, type LiveState, type Topic, type TopicState } from './store';
import { onWantedChange, wantedTopics } from './wanted';

export { refreshLists, refreshRecordings, snapshot } from './reads';

/** Topics a subscriber gets only when it names them: the status bar's once-a-second status, thumbnail ETags, the meter's levels, beats. */
const OPT_IN: Topic[] = ['status', 'thumbnail', 'audio', 'tempo'];

/** The socket's messages the page reads; their members are the GET answers the topics name. */
type ServerMessage =
  | { type: 'hello'; topics: string[]; state: Partial<TopicState> }
  | { type: 'event'; topic: string; data: unknown }
  | { type: 'error'; code: string; message: string };

function parse(text: string): ServerMessage | null {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null) return null;
  const type = (msg as { type?: unknown }).type;
  // The socket's messages are documented with GET /events; the server is trusted to send what it documents.
  return type === 'hello' || type === 'event' || type === 'error' ? (msg as ServerMessage) : null;
}
const FALLBACK_MS = 1000;

let ws: WebSocket | null = null;
/** The default topics the server named in its first hello; the subscription adds the opt-in and wanted ones. */
let helloTopics: string[] | null = null;

let retryMs = 500;
let fallbackTimer: ReturnType<typeof setInterval> | undefined;
let stopped = false;
let pending = 0;
/** Set after a close for a key change, so a second refusal asks for the key instead of looping. */
let retriedAfterKeyChange = false;

/** Applies one event. */
function apply(topic: string, data: unknown): void {
  const patch: Partial<LiveState> = {};
  merge(topic, data, patch);
  update(patch);
  // An output that stopped may have finished a recording: no topic carries the list.
  if (topic === 'outputs') void refreshRecordings();
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

function subscribe(sock: WebSocket): void {
  const topics = [...new Set([...(helloTopics ?? []), ...OPT_IN, ...wantedTopics()])];
  sock.send(JSON.stringify({ type: 'subscribe', topics }));
}

onWantedChange((topic, on) => {
  if (!on && topic === 'live') update({ live: null });
  if (!on && topic === 'transport') update({ transport: null });
  if (ws !== null && ws.readyState === WebSocket.OPEN && helloTopics !== null) subscribe(ws);
});

export function connect(): void {
  stopped = false;
  ws?.close();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/events`;
  let hello = false;
  helloTopics = null;
  const sock = new WebSocket(url);
  ws = sock;
  update({ link: live().link === 'fallback' ? 'fallback' : 'connecting' });
  sock.onopen = () => {
    // Browsers cannot set headers on the upgrade: the key goes in the first message, never in the URL.
    const key = getKey();
    if (key !== '') sock.send(JSON.stringify({ type: 'auth', key }));
  };
  sock.onmessage = (ev) => {
    const msg = parse(String(ev.data));
    if (msg === null) return;
    if (msg.type === 'hello') {
      if (!hello) {
        // The hello names the default topics; the page adds the opt-in ones it shows. A resync's hello keeps them.
        helloTopics = msg.topics;
        subscribe(sock);
      }
      hello = true;
      retryMs = 500;
      clearInterval(fallbackTimer);
      fallbackTimer = undefined;
      retriedAfterKeyChange = false;
      const patch: Partial<LiveState> = { link: 'live', lastEventAt: performance.now() };
      for (const [topic, data] of Object.entries(msg.state)) merge(topic, data, patch);
      update(patch);
    } else if (msg.type === 'event') {
      apply(msg.topic, msg.data);
    } else {
      notify(`events: ${msg.code}: ${msg.message}`);
    }
  };
  sock.onclose = (ev) => {
    if (ws !== sock || stopped) return;
    ws = null;
    if (ev.code === 4401) {
      // A live key change closes every socket: try once more with the stored key (or none) before asking.
      if (ev.reason.startsWith('the API key changed') && !retriedAfterKeyChange) {
        retriedAfterKeyChange = true;
        setTimeout(() => {
          if (!stopped && ws === null) connect();
        }, 200);
        return;
      }
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
