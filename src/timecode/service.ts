// The show's timecode (GET /timecode, docs/timecode.md): the one reader the config names hands its readings here
// (LTC from the audio worker, MTC from the MIDI entry, Art-Net timecode from the DMX socket); readings of another
// reader, or at a rate other than a forced one, are counted and change nothing. The clock extrapolates between
// readings, freewheels, and on loss holds, runs on or blacks out as configured.
import { EventEmitter } from 'node:events';
import type { TimecodeConfig, TimecodeSource } from '../config/timecode.js';
import { API_PREFIX } from '../http/route.js';
import type { Logger } from '../log.js';
import { clockNow } from '../shared/tempo-block.js';
import { send, type Dispatch } from '../transports/request.js';
import type { Transport } from '../transports/transport.js';
import { LogBudget } from '../transports/budgets.js';
import { TimecodeClock, type TimecodeReading, type TimecodeState } from './clock.js';
import { formatTimecode, fromFrames, nominal, realFps, type TcRate, toFrames } from '../shared/smpte.js';

export type ReaderName = Exclude<TimecodeSource, 'none'>;

/** What a reader hands over: the label's frame count at an instant (clockNow base). */
export type Incoming = TimecodeReading;

/** How the LTC reader in the audio worker is started and stopped (the audio client's side). */
export interface LtcControl {
  /** `onRejected`: words the decoder refused since the last call (noise that looked like a sync word). */
  start(
    onFrames: (frames: Incoming[]) => void,
    onRejected: (n: number) => void,
    onState: (state: string, message: string | null) => void,
  ): void;
  stop(): void;
}

export interface TimecodeView {
  source: TimecodeSource;
  state: TimecodeState;
  timecode: string | null;
  frames: number | null;
  seconds: number | null;
  rate: TcRate | null;
  running: boolean;
  reverse: boolean;
  sender: string | null;
  lastReadingAt: string | null;
  offset: string;
  freewheelMs: number;
  lossAction: TimecodeConfig['lossAction'];
  fps: TimecodeConfig['fps'];
  counts: { readings: number; jumps: number; losses: number; wrongRate: number; malformed: number };
  /** LTC only: the state of the reader's own ffmpeg on the input, and why it failed. */
  reader: { state: string; message: string | null } | null;
}

/** The offset in frames at a rate: at drop-frame counted as its label counts (a minute is 1798 or 1800 frames). */
function offsetFrames(text: string): (rate: TcRate) => number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [hours, minutes, seconds, frames] = text.replace(/^-/, '').split(/[:;.]/).map(Number) as [number, number, number, number];
  return (rate) => sign * toFrames({ hours, minutes, seconds, frames: Math.min(frames, nominal(rate) - 1) }, rate);
}

/** How often loss and freewheel are looked for while a reader is on. */
const CHECK_MS = 50;

export class TimecodeService extends EventEmitter implements Transport {
  readonly clock: TimecodeClock;
  private readonly extra = { wrongRate: 0, malformed: 0 };
  /** The LTC reader's input as the audio worker reports it (starting, running, retrying and why). */
  private reader: { state: string; message: string | null } | null = null;
  /** vjd blacked out on a loss (lossAction black): the signal's return lifts it. */
  private blackedOut = false;
  private timer: NodeJS.Timeout | null = null;
  private lastState: TimecodeState;
  private reverse = false;
  private readonly logBudget = new LogBudget();
  /** Bumped on every change a GET /timecode reader would see besides the running time. */
  version = 0;

  constructor(
    readonly config: TimecodeConfig,
    private readonly dispatch: Dispatch,
    private readonly log: Logger,
    private readonly ltc: LtcControl | null,
  ) {
    super();
    this.clock = new TimecodeClock({
      offsetFrames: offsetFrames(config.offset),
      freewheelMs: config.freewheelMs,
      runOnLoss: config.lossAction === 'continue',
    });
    this.lastState = config.source === 'none' ? 'off' : 'waiting';
  }

  readonly sendsFeedback = false;

  wantsTopic(): boolean {
    return false;
  }

  features(): string[] {
    return ['timecode'];
  }

  async start(): Promise<void> {
    if (this.config.source === 'none') return;
    this.timer = setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
    if (this.config.source === 'ltc')
      this.ltc?.start(
        (frames) => {
          for (const f of frames) this.take('ltc', f);
        },
        (n) => {
          this.extra.malformed += n;
        },
        (state, message) => {
          this.reader = { state, message };
          this.version++;
        },
      );
    this.log.info({ source: this.config.source, fps: this.config.fps, offset: this.config.offset }, 'timecode reader on');
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.ltc?.stop();
  }

  /** A reading from one of the readers; only the configured one's moves the clock. */
  take(reader: ReaderName, r: Incoming): void {
    if (reader !== this.config.source) return;
    if (this.config.fps !== null && r.rate !== this.config.fps) {
      this.extra.wrongRate++;
      return this.warn(r.from, `timecode at ${r.rate} fps refused: timecode.fps is ${this.config.fps}`);
    }
    const outcome = this.clock.read({ frames: r.frames, rate: r.rate, atMs: r.atMs, reverse: r.reverse, from: r.from });
    this.reverse = r.reverse;
    if (outcome !== 'steady') {
      this.version++;
      if (outcome === 'relock' || outcome === 'first') this.log.info({ from: r.from, rate: r.rate }, 'timecode locked');
      if (this.blackedOut) {
        this.blackedOut = false;
        void send(this.dispatch, `${API_PREFIX}/global/blackout`, { enabled: false });
      }
      this.emit('jump', outcome);
    }
    this.check();
  }

  /** A packet or message a reader refused (counted here so GET /timecode shows every reader's refusals). */
  malformed(from: string, reason: string): void {
    this.extra.malformed++;
    this.warn(from, reason);
  }

  private check(): void {
    const now = clockNow();
    if (this.clock.checkLoss(now)) {
      this.log.warn({ action: this.config.lossAction }, 'timecode lost');
      if (this.config.lossAction === 'black') {
        this.blackedOut = true;
        void send(this.dispatch, `${API_PREFIX}/global/blackout`, { enabled: true });
      }
    }
    const st = this.config.source === 'none' ? 'off' : this.clock.state(now);
    if (st !== this.lastState) {
      this.lastState = st;
      this.version++;
      this.emit('state', st);
    }
  }

  view(now = clockNow()): TimecodeView {
    // A loss the timer has not seen yet is noted first, so the state and the counts agree.
    this.check();
    const frames = this.clock.framesAt(now);
    const rate = this.clock.rate;
    const at = this.clock.lastReadingAt;
    return {
      source: this.config.source,
      state: this.config.source === 'none' ? 'off' : this.clock.state(now),
      timecode: frames === null || rate === null ? null : formatTimecode(fromFrames(frames, rate), rate),
      frames: frames === null ? null : Math.floor(frames),
      seconds: frames === null || rate === null ? null : Math.round((frames / realFps(rate)) * 1000) / 1000,
      rate,
      running: this.config.source !== 'none' && this.clock.running(now),
      reverse: this.reverse,
      sender: this.clock.sender,
      lastReadingAt: at === null ? null : new Date(at - clockNow() + Date.now()).toISOString(),
      offset: this.config.offset,
      freewheelMs: this.config.freewheelMs,
      lossAction: this.config.lossAction,
      fps: this.config.fps,
      counts: { ...this.clock.counts, ...this.extra },
      reader: this.reader,
    };
  }

  stats(): TimecodeView {
    return this.view();
  }

  private warn(from: string, reason: string): void {
    const suppressed = this.logBudget.take(from);
    if (suppressed === null) return;
    this.log.warn({ from: from.slice(0, 200), reason: reason.slice(0, 300), suppressed }, 'timecode input ignored');
  }
}
