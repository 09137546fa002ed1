// Clips that chase timecode: a clip locked to the show timecode from a start label plays on its own and is sought
// only when it drifts past its threshold (so it plays smoothly), landing where the timecode will be once the seek
// is shown; while the timecode stops, or points outside the clip, it holds its frame or shows black.
import type { Logger } from '../log.js';
import type { ClipStatus } from '../shared/protocol/ingest.js';
import { clockNow } from '../shared/tempo-block.js';
import { parseTimecode, realFps, toFrames, validTimecode } from '../shared/smpte.js';
import type { TimecodeClock } from '../timecode/clock.js';
import { LatencyRing } from '../util/latency-ring.js';
import type { Bus, TransportService } from './service.js';

const TICK_MS = 50;
/** After a seek, the clip's reports settle before its drift is judged again. */
const SETTLE_MS = 400;
/** Where a clip is sent to end: a few frames before its end, so the seek finds a frame and the clip runs out from it. */
const END_LEAD_S = 0.1;
/** The least a clip is parked ahead of the timecode before it is set playing. */
const MIN_LEAD_MS = 250;

interface BusState {
  busy: boolean;
  settleUntil: number;
  /** The last report of the clip's reader and when it came (clockNow base). */
  seen: { frameNo: number; at: number } | null;
  stopped: boolean;
}

export class TimecodeChase {
  private readonly timer: NodeJS.Timeout;
  private readonly buses = new Map<Bus, BusState>();
  /** How long a seek takes to be shown (smoothed): seeks aim that far ahead. */
  private seekMs = 150;
  readonly counts = { seeks: 0, stops: 0 };
  /** Timecode − clip of a settled, playing clip each tick, in ms (positive: the clip is behind). */
  readonly error = new LatencyRing(1024);

  constructor(
    private readonly transport: Pick<TransportService, 'chasing' | 'command' | 'on'>,
    private readonly clock: TimecodeClock,
    private readonly log: Logger,
  ) {
    this.timer = setInterval(() => {
      try {
        this.tick();
      } catch (err) {
        this.log.error({ err: (err as Error).message }, 'timecode chase failed');
      }
    }, TICK_MS);
    this.timer.unref();
    transport.on('report', (key: string) => this.reports.set(key, clockNow()));
  }

  /** When each reader's last report came (clockNow base). */
  private readonly reports = new Map<string, number>();

  stop(): void {
    clearInterval(this.timer);
  }

  stats() {
    return { ...this.counts, seekMs: Math.round(this.seekMs), errorMs: this.error.view() };
  }

  private tick(): void {
    const now = clockNow();
    for (const c of this.transport.chasing()) {
      const b = this.buses.get(c.bus) ?? { busy: false, settleUntil: 0, seen: null, stopped: false };
      this.buses.set(c.bus, b);
      if (c.status && c.status.frameNo !== b.seen?.frameNo) b.seen = { frameNo: c.status.frameNo, at: this.reports.get(c.key) ?? now };
      if (b.busy || !c.status) continue;
      const target = this.target(c.chase.start, now);
      const end = c.durationS;
      if (target === null || target < 0) this.halt(c.bus, b, c.chase.onStop, end);
      else if (end !== null && target >= end) {
        if (c.status.state !== 'ended' && c.status.state !== 'paused')
          this.run(c.bus, b, { op: 'seek', positionS: Math.max(0, end - END_LEAD_S), play: true });
      } else this.follow(c.bus, b, c.status, target, c.chase.thresholdMs, now, c.chase.start);
    }
  }

  /** Seconds into the clip the timecode says now; null while it does not run forwards. */
  private target(start: string, now: number): number | null {
    const rate = this.clock.rate;
    const frames = this.clock.running(now) ? this.clock.framesAt(now) : null;
    const label = parseTimecode(start);
    if (rate === null || frames === null || !label || !validTimecode(label, rate)) return null;
    return (frames - toFrames(label, rate)) / realFps(rate);
  }

  private follow(bus: Bus, b: BusState, status: ClipStatus, target: number, thresholdMs: number, now: number, start: string): void {
    b.stopped = false;
    const playing = status.state === 'playing';
    // The reader's position moves on from its last report at the clip's speed.
    const est = status.positionS + (playing && b.seen ? ((now - b.seen.at) / 1000) * status.settings.speed : 0);
    const driftMs = (target - est) * 1000;
    if (playing && now < b.settleUntil) return;
    if (playing && Math.abs(driftMs) <= thresholdMs) {
      this.error.add(driftMs);
      return;
    }
    // A seek takes a varying while to show, so the clip is parked paused a little ahead of the timecode and set
    // playing the moment the timecode reaches it: a play starts the clip's clock at once.
    this.counts.seeks++;
    const leadS = Math.max(MIN_LEAD_MS, 2 * this.seekMs) / 1000;
    const aim = target + leadS;
    const started = clockNow();
    b.busy = true;
    this.transport
      .command(bus, { op: 'seek', positionS: aim, play: false })
      .then(() => {
        this.seekMs += (clockNow() - started - this.seekMs) * 0.3;
        const at = this.target(start, clockNow());
        if (at === null) return;
        return new Promise<void>((resolve) => {
          setTimeout(
            () => {
              void this.transport
                .command(bus, { op: 'play' })
                .catch(() => undefined)
                .finally(resolve);
            },
            Math.max(0, (aim - at) * 1000),
          );
        });
      })
      .catch((err: Error) => this.log.warn({ bus, err: err.message.slice(0, 200) }, 'timecode chase seek failed'))
      .finally(() => {
        b.busy = false;
        b.settleUntil = clockNow() + SETTLE_MS;
      });
  }

  /** The timecode stopped or is before the clip: hold the frame, or show black (the clip sent past its end). */
  private halt(bus: Bus, b: BusState, onStop: 'hold' | 'black', end: number | null): void {
    if (b.stopped) return;
    b.stopped = true;
    this.counts.stops++;
    if (onStop === 'black' && end !== null) this.run(bus, b, { op: 'seek', positionS: Math.max(0, end - END_LEAD_S), play: true });
    else this.run(bus, b, { op: 'pause' });
  }

  private run(bus: Bus, b: BusState, cmd: Parameters<TransportService['command']>[1], done?: () => void): void {
    b.busy = true;
    this.transport
      .command(bus, cmd)
      .then(() => done?.())
      .catch((err: Error) => this.log.warn({ bus, op: cmd.op, err: err.message.slice(0, 200) }, 'timecode chase command failed'))
      .finally(() => {
        b.busy = false;
      });
  }
}
