// GET /api/v1/events as a WebSocket (uWebSockets.js's own): auth at the upgrade or by the first message, a hello
// with the state, events per subscribed topic, requests through the shared dispatch, bounded memory per client.
import type { HttpRequest, HttpResponse, TemplatedApp } from '../http/uws.js';
import type { WebSocket, us_socket_context_t } from 'uWebSockets.js';
import { EVENT_LIMITS } from '../limits.js';
import type { ApiKeyGuard } from '../http/auth.js';
import type { HostPolicy } from '../http/host-policy.js';
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';
import type { Router } from '../http/router.js';
import type { Logger } from '../log.js';
import type { StateBus } from './bus.js';
import { newClient, type Client } from './client.js';
import { runRequest, type SocketMethod } from './requests.js';
import { OriginPolicy } from './origin.js';
import { PendingPlaces } from './pending.js';
import { refuse, upgradeProblem } from './upgrade.js';
import { API_PREFIX } from '../http/route.js';

export const EVENTS_PATH = `${API_PREFIX}/events`;

/** Close codes (4000-4999 are the application's). */
export const CLOSE = { unauthorized: 4401, tooManyClients: 4429, serverStopping: 1001, tooBig: 1009 } as const;

export interface EventHubDeps {
  bus: StateBus;
  router: Router;
  dispatch(req: NeutralRequest): Promise<NeutralReply>;
  guard: ApiKeyGuard;
  hosts: HostPolicy;
  log: Logger;
  server: { name: string; version: string };
  maxClients(): number;
  /** `server.allowedOrigins`, read at every upgrade (live). */
  allowedOrigins(): readonly string[];
}

export interface EventHubStats {
  clients: number;
  resyncs: number;
  messagesIn: number;
  malformed: number;
}

export class EventHub {
  private readonly clients = new Set<Client>();
  private pinger: NodeJS.Timeout | null = null;
  private readonly counts = { resyncs: 0, messagesIn: 0, malformed: 0 };
  private opened = 0;
  private readonly origins: OriginPolicy;
  private readonly pending = new PendingPlaces<Client>(EVENT_LIMITS.pendingPerAddress, EVENT_LIMITS.pendingMax);

  constructor(private readonly d: EventHubDeps) {
    this.origins = new OriginPolicy(d.allowedOrigins);
    d.bus.listen((topic, text) => this.publish(topic, text));
    d.guard.onChange(() => this.keyChanged());
  }

  /** Changes whenever a counter does (GET /status memoises its body on it). */
  get version(): number {
    return this.counts.messagesIn + this.counts.resyncs * 7 + this.opened * 13 + this.clients.size * 1e9;
  }

  get active(): boolean {
    return this.clients.size > 0;
  }

  /** Whether an authenticated client subscribes to `topic` (on-demand topics run only then). */
  wants(topic: string): boolean {
    for (const c of this.clients) if (c.authed && c.topics.has(topic)) return true;
    return false;
  }

  get wantsThumbnails(): boolean {
    for (const c of this.clients) if (c.authed && c.topics.has('thumbnail')) return true;
    return false;
  }

  stats(): EventHubStats {
    return { clients: this.clients.size, ...this.counts };
  }

  start(): void {
    // One timer for every client: pings, and the silent ones closed.
    this.pinger = setInterval(() => this.heartbeat(), EVENT_LIMITS.pingIntervalMs);
    this.pinger.unref();
  }

  /** Closes every connection (shutdown). */
  stop(): void {
    if (this.pinger) clearInterval(this.pinger);
    for (const c of [...this.clients]) c.ws?.end(CLOSE.serverStopping, 'server stopping');
  }

  /** Registers the WebSocket route on one listener's app (before the HTTP routes, so a plain GET falls through). */
  mount(app: TemplatedApp, isLive: () => boolean): void {
    app.ws<Client>(EVENTS_PATH, {
      // Read past our own limit so an oversized message gets its 1009 (the engine drops larger frames unannounced).
      maxPayloadLength: EVENT_LIMITS.frameReadMaxBytes,
      // Silence is judged by the heartbeat (uWS counts its own sends as activity); the engine's timer is a backstop.
      idleTimeout: 0,
      sendPingsAutomatically: false,
      // Past our own 1 MiB check a message is skipped rather than buffered without bound.
      maxBackpressure: EVENT_LIMITS.backpressureBytes * 4,
      closeOnBackpressureLimit: 0,
      upgrade: (res, req, context) => this.upgrade(res, req, context, isLive),
      open: (ws) => this.open(ws),
      message: (ws, message, isBinary) => this.message(ws, message, isBinary),
      drain: (ws) => this.drain(ws),
      pong: (ws) => {
        ws.getUserData().lastHeard = Date.now();
      },
      close: (ws) => this.closed(ws.getUserData()),
    });
  }

  private upgrade(res: HttpResponse, req: HttpRequest, context: us_socket_context_t, isLive: () => boolean): void {
    if (!isLive()) return void res.close();
    const problem = upgradeProblem(req, this.d.hosts, this.origins);
    if (problem) return refuse(res, problem);
    const apiKey = req.getHeader('x-api-key');
    const authorization = req.getHeader('authorization');
    const client = newClient(
      apiKey,
      authorization,
      this.d.guard,
      this.d.bus.defaultTopics,
      Buffer.from(res.getRemoteAddressAsText()).toString(),
      isLive,
    );
    res.upgrade(
      client,
      req.getHeader('sec-websocket-key'),
      req.getHeader('sec-websocket-protocol'),
      req.getHeader('sec-websocket-extensions'),
      context,
    );
  }

  private open(ws: WebSocket<Client>): void {
    const c = ws.getUserData();
    c.ws = ws;
    if (c.badCredentials) return this.reject(c, 'invalid API key');
    if (c.authed && this.count(true) >= this.d.maxClients()) {
      c.closed = true;
      return void ws.end(CLOSE.tooManyClients, `at most ${this.d.maxClients()} event clients (server.maxEventClients)`);
    }
    c.admitted = true;
    this.opened++;
    this.clients.add(c);
    if (c.authed) return void this.hello(c, false);
    // Clients still to authenticate have places of their own, so sockets without the key (each may wait out the
    // auth window) cannot take the places of real control surfaces; a newcomer displaces an old one.
    const displaced = this.pending.admit(c);
    if (displaced !== null && !displaced.closed && displaced.ws) {
      displaced.closed = true;
      displaced.ws.end(
        CLOSE.tooManyClients,
        'a newer connection took this place while it waited to authenticate; authenticate with the first message',
      );
    }
    c.authTimer = setTimeout(
      () => this.reject(c, `authenticate within ${EVENT_LIMITS.authTimeoutMs / 1000} s`),
      EVENT_LIMITS.authTimeoutMs,
    );
  }

  /** A new, changed or removed API key: every socket re-authenticates, as if it had just connected. */
  private keyChanged(): void {
    for (const c of [...this.clients]) {
      if (c.closed || !c.ws) continue;
      c.closed = true;
      c.ws.end(CLOSE.unauthorized, 'the API key changed: reconnect and authenticate with the new key');
    }
  }

  /** Connected clients that have (true) or have not yet (false) authenticated. */
  private count(authed: boolean): number {
    let n = 0;
    for (const c of this.clients) if (c.authed === authed) n++;
    return n;
  }

  private reject(c: Client, why: string): void {
    if (c.closed || !c.ws) return;
    c.ws.end(
      CLOSE.unauthorized,
      `${why}: send X-API-Key or Authorization: Bearer on the upgrade, or {"type":"auth","key":"…"} first`.slice(0, 120),
    );
  }

  private closed(c: Client): void {
    c.closed = true;
    if (c.authTimer) clearTimeout(c.authTimer);
    c.authTimer = null;
    this.clients.delete(c);
    this.pending.leave(c);
    c.ws = null;
    this.d.bus.demandChanged();
  }

  private message(ws: WebSocket<Client>, data: ArrayBuffer, isBinary: boolean): void {
    const c = ws.getUserData();
    c.lastHeard = Date.now();
    this.counts.messagesIn++;
    if (c.closed) return;
    if (data.byteLength > EVENT_LIMITS.messageMaxBytes) {
      c.closed = true;
      return void ws.end(CLOSE.tooBig, `a message is at most ${EVENT_LIMITS.messageMaxBytes} bytes`);
    }
    let msg: unknown;
    if (!isBinary) {
      try {
        msg = JSON.parse(Buffer.from(data).toString('utf8'));
      } catch {
        msg = undefined;
      }
    }
    const type = isObject(msg) && typeof msg.type === 'string' ? msg.type : null;
    if (!c.authed) {
      if (type === 'auth' && isObject(msg) && typeof msg.key === 'string' && this.d.guard.check(msg.key, '')) {
        if (this.count(true) >= this.d.maxClients()) {
          return void c.ws?.end(CLOSE.tooManyClients, `at most ${this.d.maxClients()} event clients (server.maxEventClients)`);
        }
        c.apiKey = msg.key;
        c.authed = true;
        this.pending.leave(c);
        if (c.authTimer) clearTimeout(c.authTimer);
        c.authTimer = null;
        return void this.hello(c, false);
      }
      return this.reject(c, type === 'auth' ? 'invalid API key' : 'the first message must be {"type":"auth","key":"…"}');
    }
    if (isBinary) return this.error(c, 'binary messages are not accepted; send JSON text');
    if (msg === undefined) return this.error(c, 'the message is not valid JSON');
    if (!isObject(msg) || type === null) return this.error(c, 'a message is a JSON object with a string `type`');
    switch (type) {
      case 'subscribe':
        return this.subscribe(c, msg);
      case 'request':
        return void this.request(c, msg);
      case 'auth':
        return this.error(c, 'already authenticated');
      default:
        return this.error(c, `unknown message type "${type.slice(0, 40)}"; use subscribe or request`);
    }
  }

  private subscribe(c: Client, msg: Record<string, unknown>): void {
    const topics = msg.topics;
    const known = this.d.bus.names;
    if (!Array.isArray(topics) || topics.length > known.length * 2 || !topics.every((t) => typeof t === 'string')) {
      return this.error(c, `topics must be a list of topic names: ${known.join(', ')}`);
    }
    const unknown = (topics as string[]).filter((t) => !known.includes(t));
    if (unknown.length > 0) return this.error(c, `unknown topic "${unknown[0]!.slice(0, 40)}"; topics: ${known.join(', ')}`);
    const before = c.topics;
    c.topics = new Set(topics as string[]);
    this.d.bus.demandChanged();
    this.send(c, (seq) => `{"type":"subscribed","seq":${seq},"topics":${JSON.stringify([...c.topics])}}`);
    for (const topic of c.topics) {
      const text = before.has(topic) || !c.ready ? null : this.d.bus.replayText(topic);
      if (text !== null) this.send(c, (seq) => `{"type":"event","seq":${seq},"topic":"${topic}","data":${text}}`);
    }
  }

  private async request(c: Client, msg: Record<string, unknown>): Promise<void> {
    const id = msg.id;
    if (!(typeof id === 'string' && id.length <= 128) && !(typeof id === 'number' && Number.isFinite(id))) {
      return this.error(c, '`id` must be a string of at most 128 characters or a number');
    }
    const method = msg.method;
    const path = msg.path;
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') return this.error(c, '`method` must be GET, POST or DELETE', id);
    if (typeof path !== 'string' || !path.startsWith('/') || path.length > 2048)
      return this.error(c, '`path` must be an absolute path such as /api/v1/global', id);
    if (c.inFlight >= EVENT_LIMITS.requestsInFlight) {
      return this.error(c, `at most ${EVENT_LIMITS.requestsInFlight} requests in flight per socket; wait for their responses`, id);
    }
    c.inFlight++;
    try {
      await this.answer(c, id, method, path, msg.body);
    } finally {
      c.inFlight--;
    }
  }

  private async answer(c: Client, id: string | number, method: SocketMethod, path: string, payload: unknown): Promise<void> {
    const { status, body } = await runRequest(this.d, c, method, path, payload);
    const idText = JSON.stringify(id);
    this.send(c, (seq) => `{"type":"response","seq":${seq},"id":${idText},"status":${status},"body":${body}}`);
  }

  private error(c: Client, message: string, id?: unknown): void {
    this.counts.malformed++;
    const text = JSON.stringify({ code: 'INVALID_REQUEST', message, ...(id !== undefined ? { id } : {}) }).slice(1);
    this.send(c, (seq) => `{"type":"error","seq":${seq},${text}`);
  }

  private async hello(c: Client, resync: boolean): Promise<void> {
    const names = this.d.bus.helloTopics;
    const state = await this.d.bus.read(names);
    if (c.closed || c.resync) return;
    const parts = names.map((n) => `${JSON.stringify(n)}:${state.get(n) ?? 'null'}`).join(',');
    const server = JSON.stringify(this.d.server);
    c.ready = true;
    this.send(
      c,
      (seq) =>
        `{"type":"hello","seq":${seq},"server":${server},"resync":${resync},"topics":${JSON.stringify([...c.topics])},"state":{${parts}}}`,
    );
  }

  private publish(topic: string, text: string): void {
    for (const c of this.clients) {
      if (!c.ready || !c.topics.has(topic)) continue;
      this.send(c, (seq) => `{"type":"event","seq":${seq},"topic":"${topic}","data":${text}}`);
    }
  }

  /** Sends unless the client is backpressured; past the limit its queue is dropped until the socket drains. */
  private send(c: Client, build: (seq: number) => string): void {
    const ws = c.ws;
    if (!ws || c.closed || c.resync) return;
    if (!c.isLive()) return void ws.end(CLOSE.serverStopping, 'the listener moved or closed');
    if (ws.getBufferedAmount() > EVENT_LIMITS.backpressureBytes) {
      c.resync = true;
      this.counts.resyncs++;
      return;
    }
    c.seq++;
    ws.send(build(c.seq), false);
  }

  private drain(ws: WebSocket<Client>): void {
    const c = ws.getUserData();
    if (!c.resync || ws.getBufferedAmount() > EVENT_LIMITS.backpressureBytes / 16) return;
    c.resync = false;
    c.ready = false;
    void this.hello(c, true);
  }

  private heartbeat(): void {
    const now = Date.now();
    for (const c of [...this.clients]) {
      if (!c.ws || c.closed) continue;
      if (!c.isLive()) {
        c.ws.end(CLOSE.serverStopping, 'the listener moved or closed');
        continue;
      }
      if (now - c.lastHeard > EVENT_LIMITS.silenceMs) {
        c.ws.end(1001, 'no message or pong for 45 s');
        continue;
      }
      c.ws.ping();
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
