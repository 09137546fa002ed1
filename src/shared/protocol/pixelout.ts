// Messages between the main thread and the pixel-out sender (workers/pixelout): the patch and its settings in, the
// send counters out. The samples themselves never travel in a message: the render worker writes them into a
// SharedArrayBuffer (src/shared/pixel-samples.ts) the sender reads at its own rate.
import type { PixelTest } from '../pixelmap/colour.js';
import type { Fixture } from '../pixelmap/types.js';
import type { RpcEnvelope } from '../rpc.js';
import type { LogMessage } from './common.js';

/** Fixed for the worker's life (from the config): where it may send, and who it is to sACN receivers. */
export interface PixelOutInit {
  /** config pixelmap.destinations: IPv4 addresses, "broadcast", "multicast". Nothing else is ever sent to. */
  destinations: string[];
  /** Art-Net and sACN destination ports (6454 and 5568 unless the config moves them, as tests do). */
  artnetPort: number;
  sacnPort: number;
  /** The sACN component identifier (16 bytes), kept across worker restarts so receivers see one source. */
  cid: Uint8Array;
  sourceName: string;
  /** How often stats are posted (ms). */
  statsMs: number;
}

/** What the sender sends, replaced whole by each `fixtures` message. */
export interface PixelOutSettings {
  fixtures: Fixture[];
  /** The block the render worker writes the fixture samples into, in fixture order then pixel order. */
  samples: SharedArrayBuffer;
  rateHz: number;
  keepAliveMs: number;
  /** ArtSync / sACN universe sync after each frame's packets. */
  sync: boolean;
  test: PixelTest;
}

export type MainToPixelOut =
  /** Replaces the patch and settings; an empty list sends nothing. Not answered. */
  | ({ t: 'fixtures' } & PixelOutSettings)
  /** Ends the sACN streams (terminated packets) and closes the socket; answered `stopped`. */
  | ({ t: 'stop' } & RpcEnvelope);

export interface PixelOutStats {
  /** Datagrams sent over the last stats period, per second (data and sync). */
  packetsPerSecond: number;
  /** Ticks that sent at least one packet, since the worker started. */
  framesSent: number;
  /** The last send error or refused destination, null while none. */
  lastError: string | null;
}

export type PixelOutToMain = ({ t: 'stats' } & PixelOutStats) | { t: 'stopped'; id: number } | LogMessage;
