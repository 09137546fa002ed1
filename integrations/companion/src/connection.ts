// The one events WebSocket: key on the upgrade as a header, the subscription replaced whenever the wanted topics
// change, reconnect with backoff, and the connection's state reported so the instance can show it.
import WebSocket from 'ws';

export type LinkState = 'connecting' | 'ok' | 'unauthorized' | 'failed';

export interface EventsHandlers {
  state(s: LinkState, detail: string): void;
  hello(msg: any): void;
  event(topic: string, data: any): void;
  /** A topic set was confirmed by vjd (after a connect or a subscribe). */
  subscribed(topics: string[]): void;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

export class EventsLink {
  private ws: WebSocket | null = null;
  private topics: string[] = [];
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private nextId = 1;
  private pending = new Map<number, (msg: any) => void>();
  /** Subscribe messages sent, for tests and the bench. */
  subscribeCount = 0;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly on: EventsHandlers,
  ) {}

  start(): void {
    this.closed = false;
    this.open();
  }

  stop(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.removeAllListeners();
    this.ws?.on('error', () => undefined);
    this.ws?.terminate();
    this.ws = null;
    for (const r of this.pending.values()) r(null);
    this.pending.clear();
  }

  /** Replaces the subscription; sent at once when connected, else on the next connect. */
  setTopics(topics: string[]): void {
    const next = [...new Set(topics)].sort();
    if (next.join() === this.topics.join()) return;
    this.topics = next;
    this.sendSubscribe();
  }

  /** A request through the socket (vjd answers it like HTTP); used to have a thumbnail URL watched. */
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      ws.send(JSON.stringify({ type: 'request', id, method, path, body }));
    });
  }

  private sendSubscribe(): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    this.subscribeCount++;
    this.ws.send(JSON.stringify({ type: 'subscribe', topics: this.topics }));
  }

  private open(): void {
    this.on.state('connecting', this.url);
    const headers: Record<string, string> = this.apiKey ? { 'X-API-Key': this.apiKey } : {};
    const ws = new WebSocket(this.url, { headers, handshakeTimeout: 10_000 });
    this.ws = ws;
    let refused = false;
    ws.on('unexpected-response', (_req, res) => {
      refused = res.statusCode === 401;
      this.on.state(refused ? 'unauthorized' : 'failed', `upgrade refused: HTTP ${res.statusCode}`);
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => {
      this.attempt = 0;
      this.sendSubscribe();
    });
    ws.on('message', (raw) => this.onMessage(raw.toString()));
    ws.on('error', (err) => {
      if (!refused) this.on.state('failed', err.message);
    });
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const r of this.pending.values()) r(null);
      this.pending.clear();
      if (code === 4401) this.on.state('unauthorized', 'the API key was refused (4401)');
      else if (!refused) this.on.state('failed', `events socket closed (${code})`);
      if (!this.closed) this.retry();
    });
  }

  private retry(): void {
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)]!;
    this.timer = setTimeout(() => this.open(), delay);
  }

  private onMessage(text: string): void {
    let msg: any;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'hello') {
      this.on.state('ok', 'connected');
      this.on.hello(msg);
    } else if (msg.type === 'event') this.on.event(msg.topic, msg.data);
    else if (msg.type === 'subscribed') this.on.subscribed(msg.topics ?? []);
    else if (msg.type === 'response') {
      const r = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      r?.(msg);
    }
  }
}
