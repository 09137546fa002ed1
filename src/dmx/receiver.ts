// DMX over UDP (Art-Net or sACN, node:dgram and the strict readers in wire.ts): frames of the configured universe
// become requests of the route table through the shared dispatch. Packets are admitted (sender, budget) before
// they are read; only the latest frame waits while one applies, so a desk at full rate costs bounded work.
import type { Socket } from 'node:dgram';
import { DMX_LIMITS } from '../limits.js';
import { API_PREFIX } from '../http/route.js';
import type { Logger } from '../log.js';
import { LogBudget, WindowBudget } from '../transports/budgets.js';
import { refusal, send, type Dispatch } from '../transports/request.js';
import type { Transport } from '../transports/transport.js';
import { isLoopbackHost } from '../util/network.js';
import { LatencyRing } from '../util/latency-ring.js';
import type { DmxConfig as DmxSettings } from '../config/desks.js';
import { RateCounter, type DmxStats } from './stats.js';
import { DMX_PORT, readDmx } from './wire.js';
import { bindDmxSocket } from './socket.js';
import { buildPersonality, type Personality } from './personality.js';
import { FrameMapper, type DmxLookup } from './map.js';
import { SacnSources } from './sources.js';
import { readArtTimeCode } from './timecode-wire.js';
import type { TimecodeSink } from '../timecode/sink.js';
import { toFrames } from '../shared/smpte.js';
import { clockNow } from '../shared/tempo-block.js';

export type { DmxStats };

const isLoopbackSender = (a: string): boolean => isLoopbackHost(a) || a.startsWith('::ffff:127.');

export class DmxReceiver implements Transport {
  private socket: Socket | null = null;
  readonly personality: Personality;
  private readonly mapper: FrameMapper;
  private readonly counts = {
    packets: 0,
    frames: 0,
    applied: 0,
    rejected: 0,
    dropped: 0,
    malformed: 0,
    wrongUniverse: 0,
    remoteRefused: 0,
    losses: 0,
  };
  private readonly logBudget = new LogBudget();
  private readonly packetBudget = new WindowBudget(
    1000,
    DMX_LIMITS.packetsPerSenderPerSecond,
    DMX_LIMITS.packetsPerSecond,
    DMX_LIMITS.sendersMax,
  );
  private lastSource: string | null = null;
  private lastFrameAt = 0;
  private loss = false;
  /** The last frame whose requests were made: the next frame acts only where it differs (kept across losses). */
  private applied: Buffer | null = null;
  /** After a loss with lossAction black, the returning frame's blackout channel acts even if unchanged. */
  private forceBlackout = false;
  private readonly sources = new SacnSources();
  private latest: Buffer | null = null;
  private applying = false;
  private lossTimer: NodeJS.Timeout | null = null;
  private readonly rate = new RateCounter();
  private readonly applyMs = new LatencyRing(256);
  /** When the latest frame arrived (its latency starts there). */
  private latestAt = 0;

  constructor(
    private readonly settings: DmxSettings,
    private readonly dispatch: Dispatch,
    private readonly log: Logger,
    lookup: DmxLookup,
    /** Where Art-Net timecode on this socket goes (timecode.source "artnet"); the socket opens for it alone if need be. */
    private readonly timecode: TimecodeSink | null = null,
  ) {
    this.personality = buildPersonality(settings.personality.layers, settings.personality.params);
    this.mapper = new FrameMapper(this.personality, settings.address, lookup);
  }

  get port(): number {
    return this.settings.port ?? DMX_PORT[this.settings.protocol];
  }

  /** Changes whenever something GET /dmx shows does (the status body's memo key). */
  get version(): number {
    const c = this.counts;
    const moved = c.packets + c.applied * 3 + c.rejected * 5 + c.losses * 7 + this.sources.version * 11;
    return moved + (this.loss ? 1e8 : 0) + (this.socket ? 1e9 : 0);
  }

  features(): string[] {
    // A socket open only for Art-Net timecode takes no DMX control.
    return this.socket && this.settings.enabled ? ['dmx'] : [];
  }

  /** DMX only listens: nothing goes back to the desk. */
  readonly sendsFeedback = false;

  wantsTopic(): boolean {
    return false;
  }

  stats(): DmxStats {
    const s = this.settings;
    return {
      enabled: s.enabled,
      listening: this.socket !== null,
      protocol: s.protocol,
      universe: s.universe,
      address: s.address,
      host: s.host,
      port: this.port,
      ...this.counts,
      ...this.sources.counts,
      sources: this.sources.view(),
      packetsPerSecond: this.rate.perSecond(),
      lastSource: this.lastSource,
      loss: this.loss,
      lossAction: s.lossAction,
      applyMs: this.applyMs.view(),
    };
  }

  async start(): Promise<void> {
    const s = this.settings;
    if (!s.enabled && !this.timecode) return;
    this.socket = await bindDmxSocket(s, this.port, this.log, (data, from) => this.receive(data, from));
    if (!this.socket) return;
    this.lossTimer = setInterval(() => this.checkLoss(), Math.max(20, Math.min(250, s.lossMs / 4)));
    this.lossTimer.unref();
    this.log.info(
      {
        protocol: s.protocol,
        host: s.host,
        port: this.port,
        universe: s.universe,
        address: s.address,
        timecode: this.timecode !== null,
        control: s.enabled,
      },
      'DMX listening (no authentication)',
    );
  }

  stop(): void {
    if (this.lossTimer) clearInterval(this.lossTimer);
    this.lossTimer = null;
    this.socket?.close();
    this.socket = null;
  }

  private receive(data: Buffer, from: string): void {
    this.counts.packets++;
    this.rate.count();
    // DMX has no authentication: without allowRemote only this machine may drive the show.
    if (!this.settings.allowRemote && !isLoopbackSender(from)) {
      this.counts.remoteRefused++;
      return this.warn(from, 'packet from another host refused (dmx.allowRemote is false)');
    }
    if (!this.packetBudget.take(from)) {
      this.counts.dropped++;
      return;
    }
    if (this.timecode && this.settings.protocol === 'artnet') {
      const tc = readArtTimeCode(data);
      if (tc && !tc.ok) return this.timecode.malformed(from, tc.reason);
      if (tc?.ok)
        return this.timecode.take('artnet', { frames: toFrames(tc.tc, tc.rate), rate: tc.rate, atMs: clockNow(), reverse: false, from });
    }
    // A socket opened only for timecode applies no levels.
    if (!this.settings.enabled) return;
    const read = readDmx(this.settings.protocol, data);
    if (!read.ok) {
      this.counts.malformed++;
      return this.warn(from, read.reason);
    }
    if (read.frame === null) return;
    if (read.frame.universe !== this.settings.universe) {
      this.counts.wrongUniverse++;
      return;
    }
    this.counts.frames++;
    this.lastSource = from;
    const { source, terminated, slots } = read.frame;
    if (source === undefined) {
      this.signal(from);
      return this.accept(slots);
    }
    // sACN: the sources table decides which source's frame applies, and when the last one has gone.
    const out = this.sources.take({ ...source, terminated, slots }, from, Date.now());
    if (out.empty) return this.lose('the last sACN source ended its stream');
    if (out.dropped === null && !terminated) this.signal(from);
    if (out.slots) this.accept(out.slots);
  }

  private signal(from: string): void {
    this.lastFrameAt = Date.now();
    if (!this.loss) return;
    this.loss = false;
    this.log.info({ from }, 'DMX signal back');
  }

  private accept(slots: Buffer): void {
    // A copy: the datagram may be larger than the frame, and the next frame replaces this one.
    this.latest = Buffer.from(slots);
    this.latestAt = performance.now();
    if (!this.applying) void this.drain();
  }

  /** Applies the latest frame, then any newer one that came meanwhile (frames in between are skipped). */
  private async drain(): Promise<void> {
    this.applying = true;
    try {
      while (this.latest) {
        const cur = this.latest;
        const arrived = this.latestAt;
        this.latest = null;
        const requests = this.mapper.map(this.applied, cur, this.forceBlackout ? 'blackout' : null);
        this.forceBlackout = false;
        this.applied = cur;
        for (const m of requests) {
          if (m.kind === 'ignore') continue;
          if (m.kind === 'bad') {
            this.reject(m.reason);
            continue;
          }
          const why = refusal(await send(this.dispatch, m.path, m.body));
          if (why === null) this.counts.applied++;
          else this.reject(`${m.path}: ${why}`);
        }
        if (requests.some((m) => m.kind === 'request')) this.applyMs.add(performance.now() - arrived);
      }
    } catch (err) {
      this.log.error({ err }, 'DMX frame failed');
    } finally {
      this.applying = false;
    }
  }

  private checkLoss(): void {
    if (this.settings.protocol === 'sacn') {
      // Each source times out on its own; only the last one leaving is a loss.
      const out = this.sources.expire(Date.now(), this.settings.lossMs);
      if (out.empty) this.lose(`no frame for ${this.settings.lossMs} ms`);
      else if (out.slots) this.accept(out.slots);
      return;
    }
    if (this.loss || this.lastFrameAt === 0) return;
    if (Date.now() - this.lastFrameAt >= this.settings.lossMs) this.lose(`no frame for ${this.settings.lossMs} ms`);
  }

  private lose(why: string): void {
    if (this.loss) return;
    this.loss = true;
    this.counts.losses++;
    this.latest = null;
    this.log.warn({ why, action: this.settings.lossAction }, 'DMX signal lost');
    if (this.settings.lossAction !== 'black') return;
    // The returning frame acts where it changed, as any frame does; vjd set this blackout, so the frame's
    // blackout channel decides on it, changed or not.
    this.forceBlackout = true;
    void send(this.dispatch, `${API_PREFIX}/global/blackout`, { enabled: true }).then((r) =>
      r.status < 300 ? undefined : this.reject(`blackout on loss: ${r.status}`),
    );
  }

  private reject(reason: string): void {
    this.counts.rejected++;
    this.warn('(dmx)', reason);
  }

  private warn(from: string, reason: string): void {
    const suppressed = this.logBudget.take(from);
    if (suppressed === null) return;
    this.log.warn({ from, reason: reason.slice(0, 300), suppressed }, 'DMX input ignored');
  }
}
