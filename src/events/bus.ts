// The state bus: one snapshot per topic, each the JSON its GET route answers (read through the same dispatch),
// republished when it changes. Services signal "something changed" (store updates, emitters, version counters);
// the bus re-reads the topic and publishes only when the JSON differs, so a signal may be spurious and a change
// that no service signals is still caught by the sweep. Nothing is read while nobody listens.
import type { Logger } from '../log.js';
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';

export interface TopicDef {
  name: string;
  /** GET route whose JSON is the topic's data; an error answer (e.g. no palette selected) publishes null. */
  path: string;
  /** Part of the hello state and of the default subscription. */
  inHello: boolean;
  /** Call the given function whenever the topic may have changed (hooked at the store or service). */
  signals?: Array<(changed: () => void) => void>;
  /** Polled while anyone listens; a different value means the topic may have changed. */
  version?: () => unknown;
  /** Published every period whether it changed or not (status); with `onDemand`, read that often and sent when it differs. */
  periodMs?: number;
  /** Never in the default subscription; its timer or stream runs only while some listener wants this very topic. */
  onDemand?: boolean;
  /** Events pushed by a service rather than read from `path`: started while wanted; returns its stop. */
  stream?: (emit: (dataText: string) => void) => () => void;
  /** A new subscriber of a running stream gets its latest event at once (values that may not change for long). */
  replay?: boolean;
  /** Never in the default subscription (a client asks for it), but read on its signals like the state topics. */
  optIn?: boolean;
}

export type BusListener = (topic: string, dataText: string) => void;

interface TopicState {
  def: TopicDef;
  text: string | null;
  lastVersion: unknown;
}

const POLL_MS = 250;
/** Re-reads every state topic this often, catching changes no service signalled (e.g. an activation finishing). */
const SWEEP_MS = 1000;
/** A thumbnail URL's ETag is checked this often: at most 10 events per second per URL. */
const THUMB_MS = 100;
/** A topic whose read failed (the chain busy, a worker restarting) is read again after this long. */
const RETRY_MS = 100;
/** Thumbnail URLs watched at once (current plus those clients asked about); the oldest is forgotten first. */
const MAX_THUMB_URLS = 64;
export const CURRENT_THUMBNAIL = '/api/v1/thumbnails/current';

export class StateBus {
  private readonly topics = new Map<string, TopicState>();
  private readonly listeners = new Set<BusListener>();
  private readonly dirty = new Set<string>();
  private flushing = false;
  private scheduled = false;
  private timers: NodeJS.Timeout[] = [];
  private readonly thumbEtags = new Map<string, string>();
  private thumbBusy = false;
  /** The on-demand topics running now, each with its stop. */
  private readonly running = new Map<string, () => void>();

  constructor(
    defs: TopicDef[],
    private readonly dispatch: (req: NeutralRequest) => Promise<NeutralReply>,
    private readonly log: Logger,
    /** Whether anyone listens now (event clients, OSC feedback targets): nothing is read otherwise. */
    private readonly isActive: () => boolean,
    /** Whether any listener wants thumbnail events (they cost one ETag check per URL every 100 ms). */
    private readonly wantsThumbnails: () => boolean = () => false,
    /** Whether some listener wants this topic now (an on-demand topic runs only then). */
    private readonly wants: (topic: string) => boolean = () => false,
  ) {
    for (const def of defs) {
      if (this.topics.has(def.name)) throw new Error(`duplicate topic ${def.name}`);
      this.topics.set(def.name, { def, text: null, lastVersion: undefined });
      for (const hook of def.signals ?? []) hook(() => this.changed(def.name));
    }
    this.thumbEtags.set(CURRENT_THUMBNAIL, '');
  }

  /** Every topic name, `thumbnail` included. */
  get names(): string[] {
    return [...this.topics.keys(), 'thumbnail'];
  }

  get helloTopics(): string[] {
    return [...this.topics.values()].filter((t) => t.def.inHello).map((t) => t.def.name);
  }

  /** Topics a new subscriber gets by default: every one except the periodic, the on-demand ones and thumbnails. */
  get defaultTopics(): string[] {
    return [...this.topics.values()].filter((t) => t.def.periodMs === undefined && !t.def.onDemand && !t.def.optIn).map((t) => t.def.name);
  }

  start(): void {
    this.timers.push(setInterval(() => this.poll(), POLL_MS));
    this.timers.push(setInterval(() => this.isActive() && this.changed(...this.defaultTopics), SWEEP_MS));
    for (const t of this.topics.values()) {
      if (t.def.periodMs !== undefined && !t.def.onDemand)
        this.timers.push(setInterval(() => void this.publishPeriodic(t), t.def.periodMs));
    }
    this.timers.push(setInterval(() => void this.checkThumbnails(), THUMB_MS));
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const stop of this.running.values()) stop();
    this.running.clear();
  }

  /**
   * Starts the on-demand topics someone now wants and stops those nobody wants any more; called when a subscription
   * changes and on every poll (OSC feedback targets come and go without telling).
   */
  demandChanged(): void {
    for (const t of this.topics.values()) {
      if (!t.def.onDemand) continue;
      const wanted = this.timers.length > 0 && this.isActive() && this.wants(t.def.name);
      const stop = this.running.get(t.def.name);
      if (wanted && !stop) this.running.set(t.def.name, this.startOnDemand(t));
      else if (!wanted && stop) {
        stop();
        this.running.delete(t.def.name);
        t.text = null;
      }
    }
  }

  /** The latest event of a running replayed stream, for a client that just subscribed to it; else null. */
  replayText(topic: string): string | null {
    const t = this.topics.get(topic);
    return t?.def.replay && this.running.has(topic) ? t.text : null;
  }

  listen(fn: BusListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Marks topics as possibly changed; they are re-read once the current burst of I/O callbacks is done. */
  changed(...names: string[]): void {
    if (!this.isActive()) return;
    for (const n of names) if (this.topics.has(n)) this.dirty.add(n);
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** Reads the given topics now (a hello): `{name: data}` as raw JSON texts, cached so only later changes publish. */
  async read(names: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    await Promise.all(
      names.map(async (n) => {
        const t = this.topics.get(n);
        if (!t) return;
        const text = await this.snapshot(t.def);
        // A failed read leaves the topic out of the hello: the client keeps what it read over HTTP.
        if (text === null) return;
        // A hello must not hide a change from the others: a differing read is published like any change.
        if (t.text === null) t.text = text;
        else if (text !== t.text) this.dirty.add(n);
        out.set(n, text);
      }),
    );
    if (this.dirty.size > 0) this.changed();
    return out;
  }

  /** Watches a thumbnail URL (a client asked for it) so its ETag changes are published. */
  watchThumbnail(url: string): void {
    if (this.thumbEtags.has(url)) return;
    if (this.thumbEtags.size >= MAX_THUMB_URLS) {
      for (const k of this.thumbEtags.keys()) {
        if (k !== CURRENT_THUMBNAIL) {
          this.thumbEtags.delete(k);
          break;
        }
      }
    }
    this.thumbEtags.set(url, '');
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.dirty.size > 0) {
        const names = [...this.dirty];
        this.dirty.clear();
        for (const n of names) {
          const t = this.topics.get(n)!;
          const text = await this.snapshot(t.def);
          // A failed read is tried again shortly, so the change it stood for is not lost.
          if (text === null) setTimeout(() => this.changed(n), RETRY_MS).unref();
          if (text === null || text === t.text) continue;
          t.text = text;
          this.emit(n, text);
        }
      }
    } catch (err) {
      this.log.error({ err }, 'event topic could not be read');
    } finally {
      this.flushing = false;
    }
  }

  private poll(): void {
    this.demandChanged();
    if (!this.isActive()) return;
    for (const t of this.topics.values()) {
      if (!t.def.version) continue;
      const v = t.def.version();
      if (v !== t.lastVersion) {
        t.lastVersion = v;
        this.changed(t.def.name);
      }
    }
  }

  private async publishPeriodic(t: TopicState): Promise<void> {
    if (!this.isActive()) return;
    const text = await this.snapshot(t.def).catch(() => null);
    if (text === null) return;
    t.text = text;
    this.emit(t.def.name, text);
  }

  private startOnDemand(t: TopicState): () => void {
    const emit = (text: string): void => {
      t.text = text;
      this.emit(t.def.name, text);
    };
    if (t.def.stream) return t.def.stream(emit);
    let busy = false;
    const timer = setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        const text = await this.snapshot(t.def);
        // Unchanged values (no input, silence) are not sent again; a failed read sends nothing.
        if (text !== null && text !== t.text && this.running.has(t.def.name)) emit(text);
      } catch (err) {
        this.log.error({ err, topic: t.def.name }, 'event topic could not be read');
      } finally {
        busy = false;
      }
    }, t.def.periodMs ?? POLL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** A `*` If-None-Match answers 304 with the ETag from counters, before any render or encode work. */
  private async checkThumbnails(): Promise<void> {
    if (this.thumbBusy || !this.isActive() || !this.wantsThumbnails()) return;
    this.thumbBusy = true;
    try {
      for (const [url, last] of [...this.thumbEtags]) {
        const reply = await this.dispatch({ method: 'GET', path: url, headers: { 'if-none-match': '*' }, trusted: true });
        const etag = reply.headers?.ETag;
        if (etag === undefined || etag === last || !this.thumbEtags.has(url)) continue;
        this.thumbEtags.set(url, etag);
        this.emit('thumbnail', JSON.stringify({ url, etag }));
      }
    } finally {
      this.thumbBusy = false;
    }
  }

  /** The topic's state as JSON text; null when the read failed (busy, stopping): that is no state, the last one stands. */
  private async snapshot(def: TopicDef): Promise<string | null> {
    const reply = await this.dispatch({ method: 'GET', path: def.path, trusted: true });
    if (reply.status >= 300) return null;
    if (reply.jsonText !== undefined)
      return typeof reply.jsonText === 'string' ? reply.jsonText : Buffer.from(reply.jsonText).toString('utf8');
    return JSON.stringify(reply.json ?? null);
  }

  private emit(topic: string, text: string): void {
    for (const fn of this.listeners) {
      try {
        fn(topic, text);
      } catch (err) {
        this.log.error({ err, topic }, 'event listener failed');
      }
    }
  }
}
