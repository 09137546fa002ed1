// One ffmpeg process of a supervised source: what it has told us so far (stderr, frame framing, timings) and how
// it is stopped. A restart starts a fresh run.
import type { StopPlan, Supervised } from '../../src/shared/ffmpeg-supervisor.js';
import { isMeaningfulError, parseOutputSize, parseStderrLine } from './ffmpeg-args.js';

/** TERM, TERM again, then KILL: ffmpeg's second TERM interrupts a blocking read, where a stalled receiver sits. */
export const STOP_PLAN: StopPlan = { ask: 'term', againMs: 100, killMs: 500 };

/** What one ffmpeg process has told us so far; a restart starts a fresh one. */
export interface Run {
  proc: Supervised;
  inOutput: boolean;
  width: number;
  height: number;
  /** width×height×4 once the Output #0 line was seen; 0 until then. */
  frameBytes: number;
  pending: Buffer[];
  pendingBytes: number;
  slot: Uint8Array | null;
  filled: number;
  /** First meaningful error line and the latest one. */
  errors: string[];
  frames: number;
  startedAt: number;
  firstFrameAt: number;
  lastFrameAt: number;
  stallReason: string | null;
  /** Killed by restart(): the next process starts at once. */
  restarting: boolean;
  /** ffmpeg refused the audio output: the source has no audio track. */
  noAudio: boolean;
  tick: NodeJS.Timeout | null;
}

export function newRun(proc: Supervised): Run {
  return {
    proc,
    inOutput: false,
    width: 0,
    height: 0,
    frameBytes: 0,
    pending: [],
    pendingBytes: 0,
    slot: null,
    filled: 0,
    errors: [],
    frames: 0,
    startedAt: Date.now(),
    firstFrameAt: 0,
    lastFrameAt: 0,
    stallReason: null,
    restarting: false,
    noAudio: false,
    tick: null,
  };
}

/** Reads one stderr line: collects error lines and reports the output frame size once it is named. */
export function readStderrLine(run: Run, raw: string, onSize: (width: number, height: number) => void): void {
  const line = parseStderrLine(raw);
  if (!line) {
    // The wrapper speaks without level tags (e.g. "setpriv: failed to execute ffmpeg").
    if (raw.startsWith('setpriv:')) run.errors.push(raw);
    return;
  }
  if (line.context === '' && line.text.startsWith('Output #')) run.inOutput = true;
  else if (run.inOutput && run.frameBytes === 0 && line.context === '') {
    const size = parseOutputSize(line.text);
    if (size) onSize(size.width, size.height);
  }
  if (isMeaningfulError(line)) {
    // The first cause and the latest words say what went wrong without the noise in between.
    if (run.errors.length < 2) run.errors.push(line.text);
    else run.errors[1] = line.text;
  }
}
