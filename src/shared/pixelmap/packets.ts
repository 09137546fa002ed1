// The packets the pixel-out sender writes: Art-Net ArtDmx and ArtSync, sACN (E1.31) data and universe sync. Each
// data packet is one that vjd's own strict readers (src/dmx/wire.ts) take, so the two sides check each other.
import { createHash, randomUUID } from 'node:crypto';

const ARTNET_ID = 'Art-Net\0';
const ARTNET_VERSION = 14;
const OP_DMX = 0x5000;
const OP_SYNC = 0x5200;
const ACN_ID = 'ASC-E1.17\0\0\0';
const VECTOR_ROOT_DATA = 0x00000004;
const VECTOR_ROOT_EXTENDED = 0x00000008;
const VECTOR_FRAMING_DATA = 0x00000002;
const VECTOR_FRAMING_SYNC = 0x00000001;
const SACN_HEADER = 126;
const SACN_SYNC_BYTES = 49;
const NAME_BYTES = 64;
/** E1.31's default: a receiver merges equal priorities, and a desk can still override at a higher one. */
export const SACN_PRIORITY = 100;

/** ArtDmx: a universe's slots, padded to the even length (2 to 512) Art-Net requires. Sequence 1-255; 0 turns it off. */
export function artDmxPacket(universe: number, sequence: number, slots: Uint8Array): Buffer {
  const length = Math.min(512, Math.max(2, slots.length + (slots.length % 2)));
  const b = Buffer.alloc(18 + length);
  b.write(ARTNET_ID, 0, 'latin1');
  b.writeUInt16LE(OP_DMX, 8);
  b.writeUInt16BE(ARTNET_VERSION, 10);
  b[12] = sequence & 0xff;
  b[13] = 0; // physical input port: informational only
  b.writeUInt16LE(universe & 0x7fff, 14); // SubUni then Net: the 15-bit port-address, low byte first
  b.writeUInt16BE(length, 16);
  b.set(slots.subarray(0, length), 18);
  return b;
}

/** ArtSync: ID, OpSync (LE), version, Aux1, Aux2; nodes in sync mode output the ArtDmx they hold. */
export function artSyncPacket(): Buffer {
  const b = Buffer.alloc(14);
  b.write(ARTNET_ID, 0, 'latin1');
  b.writeUInt16LE(OP_SYNC, 8);
  b.writeUInt16BE(ARTNET_VERSION, 10);
  return b;
}

/** A sACN source: its component identifier (16 bytes, fixed for the life of the source) and name. */
export interface SacnSource {
  cid: Uint8Array;
  name: string;
}

/** A fresh CID (a random UUID's bytes). */
export const newCid = (): Buffer => Buffer.from(randomUUID().replaceAll('-', ''), 'hex');

/** A CID that stays the same for one `seed` (the box and its data folder), so receivers see one source across restarts. */
export function stableCid(seed: string): Buffer {
  const b = createHash('sha1').update(`vjd pixel map ${seed}`).digest().subarray(0, 16);
  // Shaped as a name-based UUID (version 5, RFC 4122 variant).
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return Buffer.from(b);
}

/** Preamble, postamble, ACN identifier, the root layer's flags+length to the end, its vector, the CID. */
function rootLayer(b: Buffer, vector: number, cid: Uint8Array): void {
  b.writeUInt16BE(0x0010, 0);
  b.writeUInt16BE(0x0000, 2);
  b.write(ACN_ID, 4, 'latin1');
  b.writeUInt16BE(0x7000 | (b.length - 16), 16);
  b.writeUInt32BE(vector, 18);
  b.set(cid.subarray(0, 16), 22);
}

export interface SacnDataOptions {
  /** The universe whose sync packet releases this data; 0 (the default) outputs it at once. */
  syncUniverse?: number;
  /** The last packet of the stream: receivers drop the source at once instead of after their timeout. */
  terminated?: boolean;
}

/** E1.31 data packet: root, framing (name, priority, sync address, sequence, options, universe), DMP with start code 0. */
export function sacnDataPacket(src: SacnSource, universe: number, sequence: number, slots: Uint8Array, opts: SacnDataOptions = {}): Buffer {
  const count = Math.min(512, slots.length);
  const b = Buffer.alloc(SACN_HEADER + count);
  rootLayer(b, VECTOR_ROOT_DATA, src.cid);
  b.writeUInt16BE(0x7000 | (b.length - 38), 38);
  b.writeUInt32BE(VECTOR_FRAMING_DATA, 40);
  writeName(b, src.name);
  b[108] = SACN_PRIORITY;
  b.writeUInt16BE(opts.syncUniverse ?? 0, 109);
  b[111] = sequence & 0xff;
  b[112] = opts.terminated ? 0x40 : 0;
  b.writeUInt16BE(universe, 113);
  b.writeUInt16BE(0x7000 | (b.length - 115), 115);
  b[117] = 0x02; // VECTOR_DMP_SET_PROPERTY
  b[118] = 0xa1; // address and data type
  b.writeUInt16BE(0x0000, 119); // first property address
  b.writeUInt16BE(0x0001, 121); // address increment
  b.writeUInt16BE(count + 1, 123); // the start code and the slots
  b[125] = 0x00; // start code: levels
  b.set(slots.subarray(0, count), SACN_HEADER);
  return b;
}

/** E1.31 universe synchronization packet (49 bytes): extended root vector, framing with sequence and sync address. */
export function sacnSyncPacket(cid: Uint8Array, sequence: number, syncUniverse: number): Buffer {
  const b = Buffer.alloc(SACN_SYNC_BYTES);
  rootLayer(b, VECTOR_ROOT_EXTENDED, cid);
  b.writeUInt16BE(0x7000 | (b.length - 38), 38);
  b.writeUInt32BE(VECTOR_FRAMING_SYNC, 40);
  b[44] = sequence & 0xff;
  b.writeUInt16BE(syncUniverse, 45);
  // 47-48: reserved, zero
  return b;
}

/** The name as UTF-8 in its 64-byte field, cut on a character boundary so the NUL terminator always fits. */
function writeName(b: Buffer, name: string): void {
  let bytes = Buffer.from(name, 'utf8');
  if (bytes.length > NAME_BYTES - 1) {
    let end = NAME_BYTES - 1;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  b.set(bytes, 44);
}

/** sACN's multicast group of a universe (its two bytes end the group address); the DMX receiver joins the same. */
export const sacnGroup = (universe: number): string => `239.255.${(universe >> 8) & 0xff}.${universe & 0xff}`;
