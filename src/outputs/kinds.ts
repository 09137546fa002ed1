// Which output kinds this box can run. Found from ffmpeg once at start (each kind's descriptor reads the encoder
// and device listings: stream and record need libx264, display the sdl2 device, v4l2 the v4l2 device), and from
// what is attached, looked at again every few seconds without a child process (a kind with an `attached` check:
// an X server on a display a display output uses, a v4l2loopback device).
import { OUTPUT_KIND_LIST, type OutputKind } from '../shared/output-kinds/index.js';
import { ffmpegListing } from '../util/ffmpeg-listing.js';

const REFRESH_MS = 10_000;

const ffmpegList = async (ffmpeg: string, flag: '-encoders' | '-devices'): Promise<string> => {
  const l = await ffmpegListing(ffmpeg, flag);
  return l.failed ? '' : l.stdout;
};

export class OutputKinds {
  private built: OutputKind[] = [];
  private current: OutputKind[] = [];
  private timer: NodeJS.Timeout | null = null;
  private listed: Promise<{ encoders: string; devices: string }> | null = null;

  constructor(private readonly opts: { ffmpeg: string; displays: () => string[]; sysfsDir: string }) {}

  /** ffmpeg's encoder and device listings, read once: the encoder probe reads the same listing instead of its own. */
  listings(): Promise<{ encoders: string; devices: string }> {
    this.listed ??= Promise.all([ffmpegList(this.opts.ffmpeg, '-encoders'), ffmpegList(this.opts.ffmpeg, '-devices')]).then(
      ([encoders, devices]) => ({ encoders, devices }),
    );
    return this.listed;
  }

  async start(): Promise<void> {
    const { encoders, devices } = await this.listings();
    // What the ffmpeg build can do, whatever is attached.
    this.built = OUTPUT_KIND_LIST.filter((k) => k.built(encoders, devices)).map((k) => k.kind);
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  list(): OutputKind[] {
    return this.current;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async refresh(): Promise<void> {
    const ctx = { displays: this.opts.displays(), sysfsDir: this.opts.sysfsDir };
    const usable = await Promise.all(
      OUTPUT_KIND_LIST.map(async (k) => this.built.includes(k.kind) && (k.attached === undefined || (await k.attached(ctx)))),
    );
    this.current = OUTPUT_KIND_LIST.filter((_k, i) => usable[i]).map((k) => k.kind);
  }
}
