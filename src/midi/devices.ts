// MIDI device I/O through @julusian/midi, loaded lazily so a box without the library or an ALSA sequencer still
// starts: then MIDI reports itself unavailable with the reason. Ports are listed again every few seconds, so a
// controller plugged in or out is seen without a restart.
import { MIDI_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';

interface InputPort {
  on(event: 'message', fn: (deltaTime: number, message: number[]) => void): unknown;
  getPortCount(): number;
  getPortName(i: number): string;
  openPort(i: number): void;
  ignoreTypes(sysex: boolean, timing: boolean, activeSensing: boolean): void;
  closePort(): void;
}
interface OutputPort {
  getPortCount(): number;
  getPortName(i: number): string;
  openPort(i: number): void;
  sendMessage(message: number[]): void;
  closePort(): void;
}
interface MidiLib {
  Input: new () => InputPort;
  Output: new () => OutputPort;
}

const cut = (name: string): string => name.slice(0, MIDI_LIMITS.portNameMaxLength);

export class MidiDevices {
  private lib: MidiLib | null = null;
  private probeIn: InputPort | null = null;
  private probeOut: OutputPort | null = null;
  reason: string | null = 'not started';
  private readonly inputs = new Map<string, InputPort>();
  private readonly outputs = new Map<string, OutputPort>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** Port name parts to open (empty: every port). */
    private readonly wanted: readonly string[],
    /** Whether clock messages are wanted (the library drops them otherwise). */
    private readonly clock: boolean,
    private readonly onMessage: (port: string, bytes: number[]) => void,
    private readonly log: Logger,
    /** Whether MIDI timecode is read: its quarter frames are timing messages and its full frame a SysEx. */
    private readonly mtc = false,
  ) {}

  get available(): boolean {
    return this.lib !== null;
  }

  inputNames(): string[] {
    return [...this.inputs.keys()];
  }

  outputNames(): string[] {
    return [...this.outputs.keys()];
  }

  async start(): Promise<void> {
    try {
      const lib = (await import('@julusian/midi')) as unknown as MidiLib;
      // Constructing a port opens the sequencer client: where there is none, this is where it fails.
      this.probeIn = new lib.Input();
      this.probeOut = new lib.Output();
      this.lib = lib;
      this.reason = null;
    } catch (err) {
      this.reason = `MIDI device I/O is unavailable: ${((err as Error).message ?? String(err)).split('\n')[0]!.slice(0, 300)}`;
      this.log.warn({ reason: this.reason }, 'MIDI devices unavailable; mappings still apply to messages vjd is given');
      return;
    }
    this.scan();
    this.timer = setInterval(() => this.scan(), MIDI_LIMITS.portScanMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const p of [...this.inputs.values(), ...this.outputs.values()]) p.closePort();
    this.inputs.clear();
    this.outputs.clear();
  }

  /** Sends to the output ports whose name contains `port` (all when undefined). */
  send(port: string | undefined, bytes: number[]): number {
    let sent = 0;
    for (const [name, out] of this.outputs) {
      if (port !== undefined && !name.toLowerCase().includes(port.toLowerCase())) continue;
      try {
        out.sendMessage(bytes);
        sent++;
      } catch (err) {
        this.log.warn({ port: name, err: (err as Error).message }, 'MIDI feedback not sent');
      }
    }
    return sent;
  }

  private want(name: string): boolean {
    // ALSA's through port echoes whatever is sent to it: feedback into it would come back as input.
    if (this.wanted.length === 0) return !/midi through/i.test(name);
    return this.wanted.some((w) => name.toLowerCase().includes(w.toLowerCase()));
  }

  /** Opens ports that appeared and closes those that went away. */
  private scan(): void {
    const lib = this.lib;
    if (!lib || !this.probeIn || !this.probeOut) return;
    try {
      this.sync(this.probeIn, this.inputs, (i) => {
        const port = new lib.Input();
        port.ignoreTypes(!this.mtc, !this.clock && !this.mtc, true);
        const name = cut(this.probeIn!.getPortName(i));
        port.on('message', (_dt, message) => this.onMessage(name, message));
        port.openPort(i);
        return port;
      });
      this.sync(this.probeOut, this.outputs, (i) => {
        const port = new lib.Output();
        port.openPort(i);
        return port;
      });
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'MIDI port scan failed');
    }
  }

  private sync<P extends { closePort(): void }>(
    probe: { getPortCount(): number; getPortName(i: number): string },
    open: Map<string, P>,
    make: (i: number) => P,
  ): void {
    const names = new Map<string, number>();
    const count = Math.min(probe.getPortCount(), 64);
    for (let i = 0; i < count; i++) names.set(cut(probe.getPortName(i)), i);
    for (const [name, port] of open) {
      if (names.has(name)) continue;
      port.closePort();
      open.delete(name);
      this.log.info({ port: name }, 'MIDI port gone');
    }
    for (const [name, i] of names) {
      if (open.has(name) || !this.want(name)) continue;
      open.set(name, make(i));
      this.log.info({ port: name }, 'MIDI port opened');
    }
  }
}
