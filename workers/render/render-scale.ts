// Render scale: the factor the sources, chain and blends draw at, fixed or chosen per frame time ("auto") so the
// frame rate holds when the picture costs more than a frame period; steps are sixteenths, after hysteresis.
import type { RenderScaleSetting } from '../../src/shared/messages.js';

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

  constructor(setting: RenderScaleSetting, periodMs: number) {
    this.auto = setting.scale === 'auto';
    this.min = setting.minScale;
    this.scale = setting.scale === 'auto' ? 1 : setting.scale;
    this.periodMs = periodMs;
  }

  /** Records one frame's drawing time; returns the new scale when it changes, else null. */
  record(frameMs: number): number | null {
    if (!this.auto) return null;
    const budget = this.periodMs * BUDGET;
    this.recent.push(frameMs);
    if (this.recent.length > UP_AFTER) this.recent.shift();
    if (frameMs > budget) {
      this.over++;
      this.under = 0;
    } else {
      this.under++;
      this.over = 0;
    }
    if (this.over >= DOWN_AFTER && this.scale > this.min) return this.change(this.down(budget));
    if (this.under >= UP_AFTER && this.scale < 1) {
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
      return null;
    }
    const aim = onGrid(this.scale * Math.sqrt((budget * HEADROOM) / Math.max(typical, 1e-3)));
    return Math.min(1, this.scale + MAX_UP, Math.max(next, aim));
  }

  private change(next: number): number | null {
    this.over = 0;
    this.under = 0;
    this.recent = [];
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
