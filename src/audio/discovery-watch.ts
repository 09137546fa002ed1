// Hot-plug discovery of capture devices: ALSA from procfs reads, PulseAudio from an async `ffmpeg -sources pulse`
// (only while a server socket exists), repeated every few seconds off the main thread's critical path: no sync
// call, every read and child output bounded, and a scan still running makes the next tick wait for it.
import { execFile } from 'node:child_process';
import { ffmpegListing } from '../util/ffmpeg-listing.js';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AudioDeviceInputConfig } from '../config/audio.js';
import { AUDIO_LIMITS } from '../limits.js';
import { captureFormats, parseAlsaCards, parseAlsaPcms, parsePulseSources, pulseAnswered } from './discovery.js';

export type DeviceKind = 'alsa' | 'pulse';

export interface DiscoveryOptions {
  ffmpeg: string;
  alsa: boolean;
  pulse: boolean;
  asoundDir: string;
  /** Where the device nodes are (`/dev`): ALSA capture is possible only while `<devDir>/snd` exists. */
  devDir: string;
}

/** Reads at most `max` bytes of a file; '' when it cannot be read. */
async function readBounded(path: string, max: number): Promise<string> {
  let fh;
  try {
    fh = await open(path, 'r');
    const buf = Buffer.alloc(max);
    let n = 0;
    // procfs files report size 0: read until the end or the bound.
    for (;;) {
      const r = await fh.read(buf, n, max - n, null);
      if (r.bytesRead === 0) break;
      n += r.bytesRead;
      if (n >= max) break;
    }
    return buf.toString('utf8', 0, n);
  } catch {
    return '';
  } finally {
    await fh?.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function ffmpegText(ffmpeg: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      ffmpeg,
      ['-hide_banner', ...args],
      { timeout: AUDIO_LIMITS.deviceProbeTimeoutMs, maxBuffer: AUDIO_LIMITS.deviceProbeMaxBytes },
      // The listing goes to stdout and the reason it failed to stderr: both are read.
      (err, stdout, stderr) => resolve(err && !stdout ? '' : `${stdout}\n${stderr}`),
    );
  });
}

/** Where libpulse looks for a local server; with none of them and no PULSE_SERVER there is nothing to ask. */
function pulseSockets(): string[] {
  const env = process.env;
  const uid = process.getuid?.() ?? 0;
  return [
    env.PULSE_RUNTIME_PATH ? join(env.PULSE_RUNTIME_PATH, 'native') : '',
    env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'pulse', 'native') : '',
    `/run/user/${uid}/pulse/native`,
    '/run/pulse/native',
  ].filter((p) => p !== '');
}

export class DeviceWatch {
  private formats = new Set<string>();
  private devices: AudioDeviceInputConfig[] = [];
  private usable: DeviceKind[] = [];
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;

  constructor(
    private readonly opts: DiscoveryOptions,
    /** Called after a scan that changed the device list. */
    private readonly onChange: () => void,
  ) {}

  /** Learns what ffmpeg can capture and makes the first scan, so a saved device selection can be found at once. */
  async start(): Promise<void> {
    if (this.opts.alsa || this.opts.pulse) {
      const l = await ffmpegListing(this.opts.ffmpeg, '-devices');
      this.formats = captureFormats(l.failed && !l.stdout ? '' : `${l.stdout}\n${l.stderr}`);
    }
    await this.scan();
    this.timer = setInterval(() => void this.scan(), AUDIO_LIMITS.deviceScanMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Devices present at the last scan. */
  list(): readonly AudioDeviceInputConfig[] {
    return this.devices;
  }

  /** Device kinds this box can open now: the ffmpeg build has the demuxer and a device or server is there. */
  kinds(): DeviceKind[] {
    return this.usable;
  }

  scan(): Promise<void> {
    this.scanning ??= this.scanOnce().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scanOnce(): Promise<void> {
    const [alsa, pulse] = await Promise.all([this.scanAlsa(), this.scanPulse()]);
    const usable: DeviceKind[] = [];
    if (alsa.usable) usable.push('alsa');
    if (pulse.usable) usable.push('pulse');
    this.usable = usable;
    const next = [...alsa.devices, ...pulse.devices].slice(0, AUDIO_LIMITS.devicesMax);
    const changed = JSON.stringify(next) !== JSON.stringify(this.devices);
    this.devices = next;
    if (changed) this.onChange();
  }

  private async scanAlsa(): Promise<{ devices: AudioDeviceInputConfig[]; usable: boolean }> {
    if (!this.opts.alsa || !this.formats.has('alsa')) return { devices: [], usable: false };
    const max = AUDIO_LIMITS.deviceProbeMaxBytes;
    const [cards, pcm, snd] = await Promise.all([
      readBounded(join(this.opts.asoundDir, 'cards'), max),
      readBounded(join(this.opts.asoundDir, 'pcm'), max),
      exists(join(this.opts.devDir, 'snd')),
    ]);
    const devices = parseAlsaPcms(pcm, parseAlsaCards(cards));
    return { devices, usable: snd || devices.length > 0 };
  }

  private async scanPulse(): Promise<{ devices: AudioDeviceInputConfig[]; usable: boolean }> {
    if (!this.opts.pulse || !this.formats.has('pulse')) return { devices: [], usable: false };
    const sockets = await Promise.all(pulseSockets().map(exists));
    if (!process.env.PULSE_SERVER && !sockets.includes(true)) return { devices: [], usable: false };
    const text = await ffmpegText(this.opts.ffmpeg, ['-sources', 'pulse']);
    if (!pulseAnswered(text)) return { devices: [], usable: false };
    return { devices: parsePulseSources(text), usable: true };
  }
}
