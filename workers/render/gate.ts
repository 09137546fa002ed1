// The gate of scheduled operations (src/schedule): the main thread shuts it shortly before an operation's instant,
// runs the operation (its handler posts render messages as usual) and opens it. The messages that came in between
// wait here and are handled at the start of the first frame due at or after the instant, before that frame draws,
// so boxes whose wall clocks agree switch on the same frame. Any message arriving while a gate waits waits with it,
// whoever sent it: the order the main thread posted in is kept, so the picture ends where the state says.
import type { MainToRender, RenderToMain } from '../../src/shared/protocol/render.js';

/** Reads and housekeeping pass a shut gate: they change no picture, and thumbnails and samples have callers waiting. */
const PASS: ReadonlySet<MainToRender['t']> = new Set(['thumb', 'sample', 'pressure', 'live-want', 'stop']);
/**
 * A source cued on a preview bus is only warmed up there, off the output: it passes, so an operation that cues and
 * then takes (a scene recall changing sources) has its sources ready by its frame and its take lands on it.
 */
const warmsUp = (m: MainToRender): boolean => m.t === 'source' && m.bus !== 'program';
/** Messages held at most; past it every gate opens at once, so a flood cannot pin memory. */
const BUFFER_MAX = 4096;
/** A gate still shut this long after its instant opens anyway: the main thread opens it before the instant. */
const OPEN_TIMEOUT_MS = 1000;
/** A gate shut this long opens whatever its instant: the main thread shuts one only shortly before its instant. */
const SHUT_MAX_MS = 5000;

interface Shut {
  id: string;
  /** Epoch ms: the first frame due at or after it handles the gate's messages. */
  at: number;
  open: boolean;
  /** Opened by a timeout or a full buffer rather than by `gate-open`: released on the next frame. */
  forced: boolean;
  /** performance.now() when it shut. */
  since: number;
  /** Messages buffered before it shut (they belong to the gates before it). */
  from: number;
}

type Applied = Omit<Extract<RenderToMain, { t: 'gate-applied' }>, 't' | 'frame'>;

export interface GateDeps {
  /** Handles one message as if it had just arrived (errors are the handler's). */
  handle(m: MainToRender): void;
  post(m: RenderToMain): void;
  warn(message: string, fields: Record<string, unknown>): void;
  /** The frame period (ms). */
  period: number;
}

export class RenderGate {
  private readonly gates: Shut[] = [];
  private buffer: MainToRender[] = [];
  /** Gates released at the start of the frame being drawn, reported once it is drawn. */
  private readonly released: Applied[] = [];

  constructor(private readonly d: GateDeps) {}

  /** Takes gate messages and the messages a shut gate holds; false: handle `m` now. */
  take(m: MainToRender): boolean {
    if (m.t === 'gate') {
      this.gates.push({ id: m.id, at: m.at, open: false, forced: false, since: performance.now(), from: this.buffer.length });
      return true;
    }
    if (m.t === 'gate-open') {
      const g = this.gates.find((x) => x.id === m.id);
      if (g) g.open = true;
      return true;
    }
    if (this.gates.length === 0 || PASS.has(m.t) || warmsUp(m)) return false;
    this.buffer.push(m);
    if (this.buffer.length >= BUFFER_MAX) {
      this.force('a scheduled operation gate opened early: too many messages waited', null);
      this.beforeFrame(performance.timeOrigin + performance.now());
    }
    return true;
  }

  /** At the start of a frame due at epoch ms `due`: handles the messages of every gate whose frame this is. */
  beforeFrame(due: number): void {
    if (this.gates.length === 0) return;
    const now = performance.now();
    for (const g of this.gates) {
      if (g.open || g.forced) continue;
      if (performance.timeOrigin + now > g.at + OPEN_TIMEOUT_MS || now - g.since > SHUT_MAX_MS) {
        this.force('a scheduled operation gate opened by its timeout (its operation did not finish sending)', g);
      }
    }
    let n = 0;
    while (n < this.gates.length && this.releasable(this.gates[n]!, due)) n++;
    if (n === 0) return;
    const done = this.gates.splice(0, n);
    const until = this.gates[0]?.from ?? this.buffer.length;
    const messages = this.buffer.slice(0, until);
    this.buffer = this.buffer.slice(until);
    for (const g of this.gates) g.from -= until;
    for (const m of messages) this.d.handle(m);
    for (const g of done) {
      // Frame slots are on a drift-free grid, so the slots between the instant and this frame are whole periods.
      const lateFrames = Math.max(0, Math.floor((due - g.at) / this.d.period));
      this.released.push({ id: g.id, dueAt: due, lateFrames, forced: g.forced });
    }
  }

  /** After the frame drew (or failed): reports the gates released at its start with its output frame number. */
  afterFrame(frame: number): void {
    if (this.released.length === 0) return;
    for (const r of this.released) this.d.post({ t: 'gate-applied', ...r, frame });
    this.released.length = 0;
  }

  private releasable(g: Shut, due: number): boolean {
    return g.forced || (g.open && due >= g.at);
  }

  /** Opens `g` (null: every gate) on the next frame, with a warning. */
  private force(message: string, g: Shut | null): void {
    for (const x of g ? [g] : this.gates) {
      if (!x.forced) this.d.warn(message, { id: x.id, waiting: this.buffer.length });
      x.forced = true;
    }
  }
}
