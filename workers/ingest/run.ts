// One ffmpeg process of a supervised source: what it has told us so far (stderr, frame framing, timings) and how
// it is stopped. A restart starts a fresh run.
import type { ChildProcess } from 'node:child_process';
import { isMeaningfulError, parseOutputSize, parseStderrLine } from './ffmpeg-args.js';

const SECOND_TERM_MS = 100;
const KILL_GRACE_MS = 500;
const MAX_STDERR_LINE = 8192;

/** What one ffmpeg process has told us so far; a restart starts a fresh one. */
export interface Run {
  child: ChildProcess;
  stderrRest: string;
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
  tick: NodeJS.Timeout | null;
  killTimer: NodeJS.Timeout | null;
}

export function newRun(child: ChildProcess): Run {
  return {
    child,
    stderrRest: '',
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
    tick: null,
    killTimer: null,
  };
}

/** Splits stderr into lines: collects error lines and reports the output frame size once it is named. */
export function readStderr(run: Run, text: string, onSize: (width: number, height: number) => void): void {
  const parts = (run.stderrRest + text).split(/\r\n|\r|\n/);
  run.stderrRest = parts.pop()!.slice(-MAX_STDERR_LINE);
  for (const raw of parts) {
    const line = parseStderrLine(raw);
    if (!line) {
      // The wrapper speaks without level tags (e.g. "setpriv: failed to execute ffmpeg").
      if (raw.startsWith('setpriv:')) run.errors.push(raw);
      continue;
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
}

/** TERM, TERM again, then KILL. */
export function killRun(run: Run): void {
  const child = run.child;
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  if (!alive() || run.killTimer) return;
  child.kill('SIGTERM');
  // ffmpeg takes a first signal as "stop after the next packet"; only a second one interrupts a blocking read,
  // which is where a stalled receiver sits. KILL ends whatever ignores both (a stopped process too).
  run.killTimer = setTimeout(() => {
    if (alive()) child.kill('SIGTERM');
    run.killTimer = setTimeout(() => {
      if (alive()) child.kill('SIGKILL');
    }, KILL_GRACE_MS - SECOND_TERM_MS);
  }, SECOND_TERM_MS);
}
