// Reading a stream's clock off the wire: the PTS of each video PES in MPEG-TS datagrams, and the drift of those
// timestamps against the arrival times (for the true-time test and its benchmark).
import { createSocket, type Socket } from 'node:dgram';
import { videoPts } from '../../src/shared/ts-pts.js';

export { videoPts };

export interface PtsArrival {
  /** performance.now() when the datagram came. */
  at: number;
  /** The frame's timestamp (ms). */
  pts: number;
}

/** A UDP socket on loopback collecting every video frame's arrival and timestamp. */
export async function ptsReceiver(port: number): Promise<{ frames: PtsArrival[]; socket: Socket }> {
  const socket = createSocket('udp4');
  const frames: PtsArrival[] = [];
  socket.on('message', (msg) => {
    const at = performance.now();
    for (const pts of videoPts(msg)) frames.push({ at, pts: pts / 90 });
  });
  await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
  return { frames, socket };
}

/**
 * How fast the timestamps ran against the wall clock, as a share (0 = in step, -0.1 = a tenth slow). A frame's
 * lateness is its arrival less its timestamp; the least lateness in the first and in the last `windowMs` leaves
 * encode and scheduling delays out, so its change over the time between them is the drift.
 */
export function ptsDrift(frames: PtsArrival[], windowMs = 3000): { drift: number; overMs: number } {
  const t0 = frames[0]!.at;
  const tEnd = frames[frames.length - 1]!.at;
  const least = (from: number, to: number): PtsArrival =>
    frames.filter((f) => f.at >= from && f.at <= to).reduce((a, f) => (f.at - f.pts < a.at - a.pts ? f : a));
  const early = least(t0, t0 + windowMs);
  const late = least(tEnd - windowMs, tEnd);
  const overMs = late.at - early.at;
  return { drift: (late.at - late.pts - (early.at - early.pts)) / overMs, overMs };
}
