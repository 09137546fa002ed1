// SMPTE timecode arithmetic shared by the readers (LTC in the audio worker), the clock, the cue list and the chase:
// the four rates vjd reads, frame counts since midnight (drop-frame aware), real seconds, and HH:MM:SS:FF text.

export type TcRate = 24 | 25 | 29.97 | 30;
export const TC_RATES: readonly TcRate[] = [24, 25, 29.97, 30];

export interface Timecode {
  hours: number;
  minutes: number;
  seconds: number;
  frames: number;
}

/** Frames counted per second of the label (29.97 drop-frame labels 30 a second and skips some). */
export const nominal = (rate: TcRate): number => (rate === 29.97 ? 30 : rate);
/** Frames per real second. */
export const realFps = (rate: TcRate): number => (rate === 29.97 ? 30000 / 1001 : rate);
export const isDrop = (rate: TcRate): boolean => rate === 29.97;

/** Frame numbers in a day (the label wraps at 24:00:00:00). */
export function framesPerDay(rate: TcRate): number {
  return isDrop(rate) ? 24 * 6 * 17_982 : 24 * 3600 * rate;
}

/** Whether the label exists at that rate (ranges, and the two numbers drop-frame skips each minute but every tenth). */
export function validTimecode(tc: Timecode, rate: TcRate): boolean {
  const { hours: h, minutes: m, seconds: s, frames: f } = tc;
  const int = (v: number, max: number) => Number.isInteger(v) && v >= 0 && v < max;
  if (!int(h, 24) || !int(m, 60) || !int(s, 60) || !int(f, nominal(rate))) return false;
  return !(isDrop(rate) && s === 0 && f < 2 && m % 10 !== 0);
}

/** Frames since 00:00:00:00 (a valid label). */
export function toFrames(tc: Timecode, rate: TcRate): number {
  const n = nominal(rate);
  const labelled = ((tc.hours * 60 + tc.minutes) * 60 + tc.seconds) * n + tc.frames;
  if (!isDrop(rate)) return labelled;
  const minutes = tc.hours * 60 + tc.minutes;
  return labelled - 2 * (minutes - Math.floor(minutes / 10));
}

/** The label of a frame count (wrapped into one day). */
export function fromFrames(count: number, rate: TcRate): Timecode {
  const day = framesPerDay(rate);
  let k = ((Math.floor(count) % day) + day) % day;
  if (isDrop(rate)) {
    const tens = Math.floor(k / 17_982);
    const rest = k % 17_982;
    k += 18 * tens + (rest > 1 ? 2 * Math.floor((rest - 2) / 1798) : 0);
  }
  const n = nominal(rate);
  return {
    hours: Math.floor(k / (3600 * n)),
    minutes: Math.floor(k / (60 * n)) % 60,
    seconds: Math.floor(k / n) % 60,
    frames: k % n,
  };
}

export const framesToSeconds = (count: number, rate: TcRate): number => count / realFps(rate);
export const secondsToFrames = (seconds: number, rate: TcRate): number => seconds * realFps(rate);

const two = (v: number) => String(v).padStart(2, '0');

export function formatTimecode(tc: Timecode, rate: TcRate): string {
  return `${two(tc.hours)}:${two(tc.minutes)}:${two(tc.seconds)}${isDrop(rate) ? ';' : ':'}${two(tc.frames)}`;
}

const TEXT = /^(\d{1,2}):(\d{2}):(\d{2})[:;.](\d{2})$/;

/** HH:MM:SS:FF (or ;FF) to a label, or null when the text is not one; validity at a rate is checked apart. */
export function parseTimecode(text: string): Timecode | null {
  if (text.length > 12) return null;
  const m = TEXT.exec(text);
  if (!m) return null;
  return { hours: Number(m[1]), minutes: Number(m[2]), seconds: Number(m[3]), frames: Number(m[4]) };
}

/** Why a label is unusable at a rate, naming where the caller's wire carries the field; null when it is fine. */
export function labelProblem(tc: Timecode, rate: TcRate, names: Record<keyof Timecode, string>): string | null {
  const limits = { hours: 24, minutes: 60, seconds: 60, frames: nominal(rate) };
  for (const field of ['hours', 'minutes', 'seconds', 'frames'] as const) {
    const v = tc[field];
    const max = limits[field];
    if (!Number.isInteger(v) || v < 0 || v >= max) return `${names[field]} (${field}) ${v} is not 0-${max - 1} at ${rate} fps`;
  }
  return validTimecode(tc, rate) ? null : `${formatTimecode(tc, rate)} is a label drop-frame skips`;
}
