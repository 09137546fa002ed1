// A running Art-Net timecode sender for tests and benches: the label of each packet follows the wall clock from a
// start label, so a late tick sends a later label (as a real generator does), and it can locate, stop and go on.
import { fromFrames, realFps, toFrames, type TcRate, type Timecode } from '../../src/shared/smpte.js';
import { udpSender, type UdpSender } from './dmx.js';
import { artTimeCode } from './timecode-packets.js';

export interface TcSender {
  /** The label frame count the sender shows at wall time `ms`. */
  framesAt(ms: number): number;
  /** The wall time at which the sender shows `frames`. */
  wallOf(frames: number): number;
  /** Goes on from `start` (a jump), now. */
  locate(start: Timecode): void;
  pause(): void;
  resume(): void;
  /** Sends one datagram as is (a bad packet). */
  raw(packet: Buffer): Promise<void>;
  stop(): void;
}

export async function artnetTimecode(port: number, start: Timecode, rate: TcRate): Promise<TcSender> {
  const udp: UdpSender = await udpSender();
  let t0 = Date.now();
  let f0 = toFrames(start, rate);
  let paused = false;
  let stoppedAt = 0;
  const framesAt = (ms: number) => f0 + Math.floor(((ms - t0) / 1000) * realFps(rate));
  const tick = () => {
    if (!paused) void udp.send(artTimeCode(fromFrames(framesAt(Date.now()), rate), rate), port).catch(() => undefined);
  };
  // Each packet goes out as its frame begins, as a timecode generator sends it.
  let timer: NodeJS.Timeout;
  const next = () => {
    tick();
    const now = Date.now();
    timer = setTimeout(next, Math.max(1, t0 + ((framesAt(now) - f0 + 1) / realFps(rate)) * 1000 - now));
  };
  next();
  return {
    framesAt,
    wallOf: (frames) => t0 + ((frames - f0) / realFps(rate)) * 1000,
    locate(s) {
      t0 = Date.now();
      f0 = toFrames(s, rate);
      tick();
    },
    pause() {
      stoppedAt = framesAt(Date.now());
      paused = true;
    },
    resume() {
      // Timecode from a stopped deck goes on where it stopped.
      t0 = Date.now();
      f0 = stoppedAt;
      paused = false;
      tick();
    },
    raw: (packet) => udp.send(packet, port),
    stop() {
      clearTimeout(timer);
      udp.close();
    },
  };
}
