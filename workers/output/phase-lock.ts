// Phase lock of an output's slot clock to the render's commits. An output takes the newest program frame at each
// of its slots; a slot that sits on a commit instant gets the new frame or the old one depending on jitter, which
// shows as a repeat followed by a skip (judder). So each slot nudges the clock's origin a little toward the middle
// between two commits. The nudges are bounded per slot and in total (half a slot), so the long-run rate, and with it
// every recording's duration, stays exactly the output's fps. Pure and allocation-free: the consumer owns one state.

/** Share of the measured phase error corrected per slot: smooths commit jitter over ~16 slots. */
const GAIN = 1 / 16;
/**
 * Largest shift per slot, as a share of the output period (4 ms at 30 fps). Only a render far slower than the
 * output reaches it: a lower cap would clamp the alternating errors of a half-rate render alike and leave a band
 * in which the lock does not steer.
 */
const MAX_STEP = 1 / 8;
/** Weight of a new sample in the render period estimate. */
const PERIOD_ALPHA = 1 / 16;
/** A newest commit older than this many render periods means the render stalled: no phase to lock to. */
const STALL_PERIODS = 2.5;

export interface PhaseLock {
  /** Estimated time between render commits (ms); 0 until two commits were seen. */
  renderPeriod: number;
  lastFrameNo: number;
  lastCommit: number;
  /** Total shift applied to the slot clock (ms), kept within ±period/2. */
  offset: number;
}

export function newPhaseLock(): PhaseLock {
  return { renderPeriod: 0, lastFrameNo: 0, lastCommit: 0, offset: 0 };
}

/**
 * One slot's correction: the shift (ms) to add to the slot clock's origin. `now` is when the slot took the newest
 * frame, `commit` that frame's commit time (same clock), `frameNo` its number, `period` the output's slot period.
 */
export function phaseStep(s: PhaseLock, period: number, now: number, commit: number, frameNo: number): number {
  if (frameNo > s.lastFrameNo) {
    if (s.lastFrameNo > 0 && commit > s.lastCommit) {
      // Frame numbers count the commits between two looks, so a slot that saw several still measures one interval.
      let sample = (commit - s.lastCommit) / (frameNo - s.lastFrameNo);
      if (s.renderPeriod === 0) s.renderPeriod = sample;
      else {
        // A stall or a skipped render frame moves the estimate by a bounded step only.
        sample = Math.min(Math.max(sample, s.renderPeriod / 2), s.renderPeriod * 2);
        s.renderPeriod += (sample - s.renderPeriod) * PERIOD_ALPHA;
      }
    }
    s.lastFrameNo = frameNo;
    s.lastCommit = commit;
  } else if (frameNo < s.lastFrameNo) {
    // A new ring (the render restarted): start over, keeping the clock's offset.
    s.renderPeriod = 0;
    s.lastFrameNo = frameNo;
    s.lastCommit = commit;
    return 0;
  }
  const r = s.renderPeriod;
  const age = now - commit;
  if (r <= 0 || age < 0 || age > STALL_PERIODS * r) return 0;
  // Phase against the commit grid, wrapped into [-r/2, r/2): 0 is mid-way between commits. A commit the render
  // skipped (or one not done yet) leaves the previous one r older, which the wrap maps to the same grid phase.
  let err = age - r / 2;
  err -= r * Math.round(err / r);
  const max = period * MAX_STEP;
  let step = Math.min(Math.max(-err * GAIN, -max), max);
  const limit = period / 2;
  step = Math.min(Math.max(s.offset + step, -limit), limit) - s.offset;
  s.offset += step;
  return step;
}
