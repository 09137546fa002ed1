// Render scale: the factor the sources, chain and blends draw at, fixed or chosen ("auto") so the frame rate holds
// and what leaves the box keeps up: down when frames cost more than a period, and when the encoders drop frames or
// the main thread runs late (the pixels they handle follow the scale); steps are sixteenths, after hysteresis.
import type { PipelinePressure, RenderScaleSetting, ScaleLimit } from '../../src/shared/protocol/render.js';
import { pipelineShort } from '../../src/shared/pipeline-pressure.js';

/** Scales move on a grid of this step, so a change is visible as one step rather than a shimmer. */
export const SCALE_STEP = 1 / 16;
/** Frames over budget in a row before the scale goes down. */
const DOWN_AFTER = 8;
/** Frames with headroom in a row before the scale goes up (slower than down: a late frame costs more). */
const UP_AFTER = 30;
/** The share of the frame period the drawing may use; the rest is for readback, thumbnails and the timer. */
const BUDGET = 0.85;
/** Going up only when the frame predicted at the next scale stays below this share of the period. */
const HEADROOM = 0.7;
/** The largest step up at once, so a wrong guess costs one short dip rather than a long slide back down. */
const MAX_UP = 4 * SCALE_STEP;
/** Pressure reports (one a second) over a limit in a row before a step down; quiet ones before a step up may follow. */
const PRESSED_AFTER = 2;
const CALM_AFTER = 5;
/** Readback holds the scale when it takes this share of the frame. */
const READBACK_SHARE = 0.4;

/** The pixel size drawn at `scale` for an output of width × height (at least one pixel each way). */
export function scaledSize(width: number, height: number, scale: number): [number, number] {
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

export class RenderScale {
  /** The factor frames are drawn at now. */
  scale: number;
  private readonly auto: boolean;
  private readonly min: number;
  private readonly periodMs: number;
  private over = 0;
  private under = 0;
  private recent: number[] = [];
  private readbacks: number[] = [];
  private pressed = 0;
  private calm = CALM_AFTER;
  private last: PipelinePressure = { encodeDropPct: 0, mainLagMs: 0 };
  private by: ScaleLimit = null;

  constructor(setting: RenderScaleSetting, periodMs: number) {
    this.auto = setting.scale === 'auto';
    this.min = setting.minScale;
    this.scale = setting.scale === 'auto' ? 1 : setting.scale;
    this.periodMs = periodMs;
  }

  /** Records one frame's time, `readbackMs` of it reading the program back; returns the new scale when it changes. */
  record(frameMs: number, readbackMs = 0): number | null {
    if (!this.auto) return null;
    const budget = this.periodMs * BUDGET;
    this.recent.push(frameMs);
    this.readbacks.push(readbackMs);
    if (this.recent.length > UP_AFTER) this.recent.shift();
    if (this.readbacks.length > UP_AFTER) this.readbacks.shift();
    if (frameMs > budget) {
      this.over++;
      this.under = 0;
    } else {
      this.under++;
      this.over = 0;
    }
    if (this.over >= DOWN_AFTER && this.scale > this.min) {
      this.by = this.frameLimit();
      return this.change(this.down(budget));
    }
    if (this.under >= UP_AFTER && this.scale < 1 && this.calm >= CALM_AFTER) {
      const next = this.up(budget);
      if (next !== null) return this.change(next);
    }
    return null;
  }

  /** Drawing cost follows the pixel count: aims the area at the budget, at least one step down. */
  private down(budget: number): number {
    const typical = median(this.recent.slice(-DOWN_AFTER));
    const aim = this.scale * Math.sqrt(budget / Math.max(typical, 1e-3));
    const stepped = Math.min(this.scale - SCALE_STEP, onGrid(aim));
    return Math.max(this.min, stepped);
  }

  /** One step up or more while the predicted frame keeps its headroom; null when even one step would not. */
  private up(budget: number): number | null {
    const typical = median(this.recent);
    const next = Math.min(1, onGrid(this.scale + SCALE_STEP + 1e-9));
    const predicted = typical * (next / this.scale) ** 2;
    if (predicted > budget * HEADROOM) {
      this.under = 0;
      this.by = this.frameLimit();
      return null;
    }
    const aim = onGrid(this.scale * Math.sqrt((budget * HEADROOM) / Math.max(typical, 1e-3)));
    return Math.min(1, this.scale + MAX_UP, Math.max(next, aim));
  }

  /**
   * One pressure report from the main thread; returns the new scale when it steps down. While reports say the
   * pipeline is short the scale never goes up, so a picture that draws in time still waits for the encoders.
   */
  pressure(p: PipelinePressure): number | null {
    this.last = p;
    if (!this.auto) return null;
    const short = pipelineShort(p);
    if (!short) {
      this.calm++;
      this.pressed = 0;
      return null;
    }
    this.calm = 0;
    if (++this.pressed < PRESSED_AFTER || this.scale <= this.min) return null;
    this.pressed = 0;
    this.by = short;
    return this.change(Math.max(this.min, onGrid(this.scale - SCALE_STEP + 1e-9)));
  }

  /** What holds the scale where it is, with the figures behind it. */
  limit(): { by: ScaleLimit; frameMs: number; readbackMs: number } & PipelinePressure {
    return { by: this.scale < 1 ? this.by : null, frameMs: median(this.recent), readbackMs: median(this.readbacks), ...this.last };
  }

  private frameLimit(): ScaleLimit {
    return median(this.readbacks) > READBACK_SHARE * median(this.recent) ? 'readback' : 'render';
  }

  private change(next: number): number | null {
    this.over = 0;
    this.under = 0;
    this.recent = [];
    this.readbacks = [];
    if (Math.abs(next - this.scale) < 1e-9) return null;
    this.scale = next;
    return next;
  }
}

/** Down to the step grid (a scale below the minimum is raised by the caller). */
function onGrid(s: number): number {
  return Math.floor(s / SCALE_STEP + 1e-9) * SCALE_STEP;
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
