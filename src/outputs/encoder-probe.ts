// Which H.264 encoder an output's `encoder` choice means on this box. A hardware encoder ffmpeg lists may still not
// run (no GPU, no driver, no device node), so each is tried once per process by encoding one small frame; `auto`
// takes the first that works in HW_ENCODERS order, else libx264. Found on the main thread and cached, so the output
// worker gets a decided encoder in the spec and never probes.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ENCODER_TRIAL_LIMITS } from '../limits.js';
import {
  HW_ENCODERS,
  listedEncoders,
  namedEncoder,
  trialArgs,
  VAAPI_DEVICE,
  type EncoderChoice,
  type H264Encoder,
  type HwEncoder,
} from '../shared/output-kinds/encoders.js';

export type Resolved = { ok: true; encoder: H264Encoder } | { ok: false; reason: string };

export interface ProbeDeps {
  /** `ffmpeg -hide_banner -encoders` output ('' when ffmpeg could not be run). */
  listing(): Promise<string>;
  /** One trial run: null when it encoded, else why not. */
  trial(encoder: HwEncoder): Promise<string | null>;
  /** Whether a device node is there. */
  exists(path: string): boolean;
}

export class EncoderProbe {
  private listed: Promise<Set<H264Encoder>> | null = null;
  private readonly trials = new Map<HwEncoder, Promise<string | null>>();
  private auto: Promise<H264Encoder> | null = null;
  private autoFound: H264Encoder | null = null;
  private readonly deps: ProbeDeps;

  constructor(opts: { ffmpeg: string } & Partial<ProbeDeps>) {
    this.deps = {
      listing: opts.listing ?? (() => runFfmpeg(opts.ffmpeg, ['-hide_banner', '-encoders'], true).then((r) => (r.ok ? r.out : ''))),
      trial: opts.trial ?? ((enc) => runFfmpeg(opts.ffmpeg, trialArgs(enc), false).then((r) => (r.ok ? null : reasonOf(enc, r.out)))),
      exists: opts.exists ?? existsSync,
    };
  }

  /** The H.264 encoders this ffmpeg build has (read once). */
  encoders(): Promise<Set<H264Encoder>> {
    this.listed ??= this.deps.listing().then(listedEncoders);
    return this.listed;
  }

  /** What `auto` resolved to, once an output needed it; null before. */
  autoEncoder(): H264Encoder | null {
    return this.autoFound;
  }

  /** The encoder a choice means here, or why an explicitly named hardware encoder cannot run. */
  async resolve(choice: EncoderChoice): Promise<Resolved> {
    if (choice === 'auto') return { ok: true, encoder: await this.resolveAuto() };
    const encoder = namedEncoder(choice);
    if (encoder === 'libx264') return { ok: true, encoder };
    const why = await this.works(encoder);
    return why === null ? { ok: true, encoder } : { ok: false, reason: `encoder ${choice} cannot run here: ${why} (use "auto" or "x264")` };
  }

  private resolveAuto(): Promise<H264Encoder> {
    this.auto ??= (async () => {
      let found: H264Encoder = 'libx264';
      for (const enc of HW_ENCODERS) {
        if ((await this.works(enc)) === null) {
          found = enc;
          break;
        }
      }
      this.autoFound = found;
      return found;
    })();
    return this.auto;
  }

  /** null when the encoder ran its trial; else why it cannot be used. Each trial runs once per process. */
  private async works(enc: HwEncoder): Promise<string | null> {
    if (!(await this.encoders()).has(enc)) return 'this ffmpeg build does not have it';
    if (enc === 'h264_vaapi' && !this.deps.exists(VAAPI_DEVICE)) return `${VAAPI_DEVICE} is not there`;
    let t = this.trials.get(enc);
    if (!t) {
      t = this.deps.trial(enc);
      this.trials.set(enc, t);
    }
    return t;
  }
}

/** ffmpeg's own words, without the `[h264_nvenc @ …]` prefix: its first line about the encoder, else its first line. */
export function reasonOf(enc: HwEncoder, stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => l.startsWith(`[${enc} @`)) ?? lines[0] ?? 'the trial encode failed';
  return line.replace(/^\[[^\]]*\]\s*/, '').slice(0, 200);
}

/** Runs ffmpeg with a time limit, keeping stdout (when asked) and the tail of stderr; ok when it exited 0. */
function runFfmpeg(ffmpeg: string, args: string[], wantStdout: boolean): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', wantStdout ? 'pipe' : 'ignore', 'pipe'] });
    let out = '';
    let err = '';
    let late = false;
    const max = ENCODER_TRIAL_LIMITS.stderrMaxBytes;
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-max);
    });
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, ENCODER_TRIAL_LIMITS.timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, out: `ffmpeg could not start: ${e.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (late) resolve({ ok: false, out: `no answer within ${ENCODER_TRIAL_LIMITS.timeoutMs / 1000} s` });
      else resolve({ ok: code === 0, out: wantStdout && code === 0 ? out : err });
    });
  });
}
