// MJPEG preview of the program: clients grouped by (size, fps); each group encodes one JPEG per tick in the encode
// pool, from the output ring, and every client of the group gets the same bytes. A client whose previous part is
// still in its socket buffer skips the frame: a slow reader gets fewer frames, never a growing buffer; one that
// takes no part for too long is closed, and a group whose clients all wait encodes nothing. While the pipeline is
// short (encoders dropping frames, the main thread late) every group encodes every other tick: a preview is what
// costs least to lose.
import type { StreamSink } from '../http/route.js';
import type { Logger } from '../log.js';
import { PREVIEW_LIMITS } from '../limits.js';
import { ApiError } from '../errors.js';
import { fitSize } from '../thumbnails/params.js';
import type { EncodePool } from '../workers/encode-pool.js';

export const BOUNDARY = 'vjdpreviewframe';

export interface PreviewStats {
  clients: number;
  /** JPEG encodes since start (one per group per new frame, however many clients share it). */
  encodes: number;
  /** Parts written to clients. */
  framesSent: number;
  /** Parts a client did not get because it had not taken the previous one yet. */
  framesSkipped: number;
  /** Bytes the HTTP engine holds for all clients beyond their sockets now (an upper bound). */
  queuedBytes: number;
  /** The most one client's queued bytes reached since start. */
  queuedBytesMax: number;
  /** Clients closed because they took no part for too long or held too much. */
  clientsDropped: number;
  /** Ticks a group let pass because the pipeline was short. */
  ticksShed: number;
}

interface Group {
  key: string;
  width: number;
  height: number;
  clients: Set<StreamSink>;
  /** When each client that is waiting on its socket started to wait. */
  waiting: Map<StreamSink, number>;
  timer: NodeJS.Timeout;
  busy: boolean;
  frameNo: number;
  ticks: number;
}

/** A whole decimal number is clamped to [min, max]; anything else takes the default (like thumbnail sizes). */
export function parseClamped(raw: string | undefined, r: { min: number; max: number; default: number }): number {
  if (raw === undefined || raw.length === 0 || raw.length > 32) return r.default;
  const t = raw.trim();
  if (!/^[+-]?\d+(\.0*)?$/.test(t)) return r.default;
  return Math.min(r.max, Math.max(r.min, Number(t)));
}

export class PreviewHub {
  private readonly groups = new Map<string, Group>();
  private readonly stats_: PreviewStats = {
    clients: 0,
    encodes: 0,
    framesSent: 0,
    framesSkipped: 0,
    queuedBytes: 0,
    queuedBytesMax: 0,
    clientsDropped: 0,
    ticksShed: 0,
  };
  /** Bumped when the counters change (memoised status bodies). */
  version = 0;
  private stopped = false;

  constructor(
    private readonly opts: {
      encoder: EncodePool;
      /** The program ring; asking for it allocates it. */
      ring: () => SharedArrayBuffer;
      render: { width: number; height: number };
      /** Called with true when the first client arrives and false when the last one leaves. */
      setActive: (on: boolean) => void;
      /** Whether the pipeline is short now (previews then run at half their rate); absent: never. */
      short?: () => boolean;
      log: Logger;
    },
  ) {}

  stats(): PreviewStats {
    let queued = 0;
    for (const g of this.groups.values()) for (const c of g.clients) queued += c.queuedBytes;
    return { ...this.stats_, queuedBytes: queued };
  }

  /** Throws 503 PREVIEW_LIMIT when full; called before the answer's headers go out. */
  checkRoom(): void {
    if (this.stats_.clients >= PREVIEW_LIMITS.clients) throw new ApiError('PREVIEW_LIMIT', undefined, undefined, { 'Retry-After': '5' });
  }

  /** Adds a client with an open stream; it leaves when the stream closes. */
  attach(sink: StreamSink, size: number, fps: number): void {
    if (this.stopped || sink.closed) return sink.end();
    const { width, height } = fitSize(this.opts.render.width, this.opts.render.height, size);
    const key = `${width}x${height}@${fps}`;
    let g = this.groups.get(key);
    if (!g) {
      const group: Group = {
        key,
        width,
        height,
        clients: new Set(),
        waiting: new Map(),
        busy: false,
        frameNo: 0,
        ticks: 0,
        timer: setInterval(() => this.tick(group), 1000 / fps),
      };
      g = group;
      this.groups.set(key, g);
    }
    const group = g;
    group.clients.add(sink);
    if (++this.stats_.clients === 1) this.opts.setActive(true);
    this.version++;
    sink.onClose(() => {
      group.waiting.delete(sink);
      if (!group.clients.delete(sink)) return;
      this.version++;
      if (group.clients.size === 0) {
        clearInterval(group.timer);
        this.groups.delete(group.key);
      }
      if (--this.stats_.clients === 0) this.opts.setActive(false);
    });
  }

  /** Ends every preview stream (shutdown). */
  stop(): void {
    this.stopped = true;
    for (const g of [...this.groups.values()]) for (const c of [...g.clients]) c.end();
  }

  private tick(g: Group): void {
    // One encode in flight per group: a slow pool lowers the preview's frame rate instead of queueing work.
    if (g.busy || g.clients.size === 0) return;
    if (this.opts.short?.() && g.ticks++ % 2 === 1) {
      this.stats_.ticksShed++;
      this.version++;
      return;
    }
    // Nobody could take a new part: encoding one would only make garbage. Each of them missed this frame.
    if (!this.checkClients(g)) {
      if (g.clients.size > 0) {
        this.stats_.framesSkipped += g.clients.size;
        this.version++;
      }
      return;
    }
    g.busy = true;
    this.opts.encoder
      .run({ op: 'program', ring: this.opts.ring(), after: g.frameNo, width: g.width, height: g.height })
      .then(
        (r) => {
          if (r.bytes.byteLength === 0) return;
          g.frameNo = r.frameNo ?? g.frameNo;
          this.stats_.encodes++;
          this.version++;
          this.send(g, r.bytes);
        },
        (err: Error) => this.opts.log.warn({ err: err.message }, 'preview encode failed'),
      )
      .finally(() => {
        g.busy = false;
      });
  }

  /** Closes clients stuck on their socket for too long; true when some client can take a part now. */
  private checkClients(g: Group): boolean {
    const now = Date.now();
    let ready = false;
    for (const c of [...g.clients]) {
      this.noteQueued(c);
      if (c.closed) continue;
      if (!c.backpressured) {
        g.waiting.delete(c);
        ready = true;
        continue;
      }
      const since = g.waiting.get(c);
      if (since === undefined) g.waiting.set(c, now);
      else if (now - since >= PREVIEW_LIMITS.stallMs || c.queuedBytes > PREVIEW_LIMITS.clientQueueBytes) this.drop(c, now - since);
    }
    return ready;
  }

  private drop(c: StreamSink, waitedMs: number): void {
    this.stats_.clientsDropped++;
    this.version++;
    this.opts.log.info({ waitedMs, queuedBytes: c.queuedBytes }, 'preview client closed: it takes no frames');
    c.abort();
  }

  private noteQueued(c: StreamSink): void {
    if (c.queuedBytes > this.stats_.queuedBytesMax) this.stats_.queuedBytesMax = c.queuedBytes;
  }

  private send(g: Group, jpeg: Uint8Array): void {
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.byteLength}\r\n\r\n`);
    const part = Buffer.concat([head, jpeg, Buffer.from('\r\n')]);
    for (const c of g.clients) {
      if (c.closed) continue;
      if (c.backpressured) {
        this.stats_.framesSkipped++;
        continue;
      }
      c.write(part);
      this.noteQueued(c);
      this.stats_.framesSent++;
    }
  }
}
