// When a supervised ffmpeg counts as stalled. Live inputs: no frame for the live window after a first frame (before
// it, a receiver waiting for its sender is connecting). Media files: no frame since the last one (or since the
// start) for the longer of a generous floor and a few of the file's own frame intervals, since a file never waits
// on anyone and an ffmpeg that hangs on it would otherwise never be replaced.

export interface RunClock {
  frames: number;
  startedAt: number;
  firstFrameAt: number;
  lastFrameAt: number;
}

export interface StallRule {
  live: boolean;
  liveMs: number;
  fileMs: number;
  /** Frame intervals a file may go without a frame. */
  frames: number;
}

/** The reason the run stalled at `now`, or null while it has not. */
export function stallReason(run: RunClock, rule: StallRule, now: number): string | null {
  if (rule.live) {
    if (run.frames === 0 || now - run.lastFrameAt <= rule.liveMs) return null;
    return `no frames for ${rule.liveMs} ms`;
  }
  const since = run.frames > 0 ? run.lastFrameAt : run.startedAt;
  // The mean interval between this run's frames: a slow file (a slideshow) is allowed its own pace.
  const interval = run.frames > 1 ? (run.lastFrameAt - run.firstFrameAt) / (run.frames - 1) : 0;
  const limit = Math.max(rule.fileMs, Math.ceil(interval * rule.frames));
  if (now - since <= limit) return null;
  return run.frames > 0 ? `no new frame for ${limit} ms` : `no first frame within ${limit} ms`;
}
