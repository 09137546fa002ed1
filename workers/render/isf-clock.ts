// One ISF instance's own clock: TIME, TIMEDELTA and FRAMEINDEX count from the first frame the instance draws
// after it was started (added, re-enabled, selected, taken), as the ISF specification defines them per shader.

/** The per-instance built-ins of one frame. */
export interface ClockValues {
  time: number;
  timeDelta: number;
  frameIndex: number;
}

export class InstanceClock {
  /** The loop time (seconds) of the instance's first frame; null until it draws after a start. */
  private startTime: number | null = null;
  private lastTime = 0;
  /** The loop frame last ticked: a second draw in the same frame (both buses stale) reads the same values. */
  private lastLoopFrame = -1;
  readonly values: ClockValues = { time: 0, timeDelta: 0, frameIndex: 0 };

  /** The next frame drawn is the instance's frame 0 at TIME 0. */
  restart(): void {
    this.startTime = null;
    this.lastLoopFrame = -1;
  }

  /** Whether the instance has drawn since its last start (so it holds state worth clearing). */
  get running(): boolean {
    return this.startTime !== null;
  }

  /** Advances to the loop frame `loopFrame` at loop time `loopTime` (seconds) and returns this instance's values. */
  tick(loopTime: number, loopFrame: number): ClockValues {
    const v = this.values;
    if (loopFrame === this.lastLoopFrame) return v;
    if (this.startTime === null) {
      this.startTime = loopTime;
      v.frameIndex = 0;
      v.timeDelta = 0;
    } else {
      v.frameIndex++;
      v.timeDelta = loopTime - this.lastTime;
    }
    v.time = loopTime - this.startTime;
    this.lastTime = loopTime;
    this.lastLoopFrame = loopFrame;
    return v;
  }
}
