// Strict readers for the two DMX data packets vjd takes: Art-Net ArtDmx and sACN (E1.31) data. Both are fixed
// layouts, so each is checked field by field against its exact size before a slot is read; anything else (other
// Art-Net opcodes, sACN sync or discovery, lying lengths, trailing bytes) is refused at the first wrong byte.
import { DMX_LIMITS } from '../limits.js';

export type DmxProtocol = 'artnet' | 'sacn';

/** One universe's slots as sent (a view into the datagram, at most a whole universe). */
export interface DmxFrame {
  universe: number;
  slots: Buffer;
  /** sACN: the sender ended its stream (its last packet); Art-Net never says so. */
  terminated: boolean;
  /** sACN: who sent it, so each source is tracked on its own (Art-Net has no such fields). */
  source?: SacnSourceFields;
}

export interface SacnSourceFields {
  /** The sender's component identifier (CID), as 32 hex digits. */
  cid: string;
  /** The source name as sent, up to its first NUL. */
  name: string;
  /** 0 to 200, higher wins. */
  priority: number;
  sequence: number;
}

export type DmxRead = { ok: true; frame: DmxFrame } | { ok: true; frame: null; why: string } | { ok: false; reason: string };

const ARTNET_ID = Buffer.from('Art-Net\0', 'latin1');
const ARTNET_OP_DMX = 0x5000;
const ARTNET_HEADER = 18;
const ACN_ID = Buffer.from('ASC-E1.17\0\0\0', 'latin1');
const SACN_HEADER = 126;
const SLOTS_MAX = 512;
const SACN_PRIORITY_MAX = 200;

const refused = (reason: string): DmxRead => ({ ok: false, reason });

/** ArtDmx: ID, opcode (LE), protocol version (BE, at least ArtDmx's), sequence, physical, port-address (LE), length (BE), data. */
export function readArtDmx(buf: Buffer): DmxRead {
  if (buf.length > DMX_LIMITS.packetMaxBytes) return refused(`packet of ${buf.length} bytes is larger than ${DMX_LIMITS.packetMaxBytes}`);
  if (buf.length < ARTNET_HEADER) return refused(`packet of ${buf.length} bytes is shorter than an ArtDmx header`);
  if (buf.compare(ARTNET_ID, 0, ARTNET_ID.length, 0, ARTNET_ID.length) !== 0) return refused('not an Art-Net packet');
  const op = buf.readUInt16LE(8);
  // ArtPoll and the other opcodes are valid Art-Net that vjd has no use for: not an error, just not data.
  if (op !== ARTNET_OP_DMX) return { ok: true, frame: null, why: `Art-Net opcode 0x${op.toString(16)} is not ArtDmx` };
  if (buf.readUInt16BE(10) < 14) return refused('Art-Net protocol version below 14');
  const length = buf.readUInt16BE(16);
  if (length < 2 || length > SLOTS_MAX || length % 2 !== 0) return refused(`ArtDmx length ${length} is not an even number from 2 to 512`);
  if (buf.length !== ARTNET_HEADER + length) return refused(`ArtDmx says ${length} slots but carries ${buf.length - ARTNET_HEADER}`);
  return { ok: true, frame: { universe: buf.readUInt16LE(14) & 0x7fff, slots: buf.subarray(ARTNET_HEADER), terminated: false } };
}

/** A layer's flags and length field: the length must equal the rest of the packet from `at`. */
function pduLength(buf: Buffer, at: number, what: string): string | null {
  const v = buf.readUInt16BE(at);
  if (v >> 12 !== 0x7) return `${what} flags are not 0x7`;
  return (v & 0x0fff) === buf.length - at ? null : `${what} length ${v & 0x0fff} does not match the ${buf.length - at} bytes left`;
}

/** E1.31 data packet: root layer, framing layer, DMP layer, the levels start code, then the slots. */
export function readSacn(buf: Buffer): DmxRead {
  if (buf.length > DMX_LIMITS.packetMaxBytes) return refused(`packet of ${buf.length} bytes is larger than ${DMX_LIMITS.packetMaxBytes}`);
  if (buf.length < SACN_HEADER) return refused(`packet of ${buf.length} bytes is shorter than an E1.31 data header`);
  if (buf.readUInt16BE(0) !== 0x0010 || buf.readUInt16BE(2) !== 0) return refused('not an ACN packet (preamble or postamble)');
  if (buf.compare(ACN_ID, 0, ACN_ID.length, 4, 4 + ACN_ID.length) !== 0) return refused('not an ACN packet (identifier)');
  const root = pduLength(buf, 16, 'root layer');
  if (root) return refused(root);
  // Sync and discovery packets are valid E1.31 that carry no slots.
  if (buf.readUInt32BE(18) !== 0x00000004) return { ok: true, frame: null, why: 'E1.31 packet is not data' };
  const framing = pduLength(buf, 38, 'framing layer');
  if (framing) return refused(framing);
  if (buf.readUInt32BE(40) !== 0x00000002) return refused('framing layer vector is not data');
  const priority = buf[108]!;
  // E1.31 forbids higher priorities on the wire: such a sender is broken, not merely more important.
  if (priority > SACN_PRIORITY_MAX) return refused(`priority ${priority} is above ${SACN_PRIORITY_MAX}`);
  const options = buf[112]!;
  const universe = buf.readUInt16BE(113);
  if (universe < 1 || universe > 63999) return refused(`universe ${universe} is outside 1 to 63999`);
  const dmp = pduLength(buf, 115, 'DMP layer');
  if (dmp) return refused(dmp);
  if (buf[117] !== 0x02 || buf[118] !== 0xa1) return refused('DMP vector or address type is wrong');
  if (buf.readUInt16BE(119) !== 0 || buf.readUInt16BE(121) !== 1) return refused('DMP first address or increment is wrong');
  const count = buf.readUInt16BE(123);
  if (count < 1 || count > SLOTS_MAX + 1 || count !== buf.length - 125)
    return refused(`DMP property count ${count} does not match the packet`);
  // Preview data is for visualisers, and other start codes are not levels.
  if (options & 0x80) return { ok: true, frame: null, why: 'E1.31 preview data' };
  if (buf[125] !== 0) return { ok: true, frame: null, why: `E1.31 start code ${buf[125]} is not levels` };
  const name = buf.subarray(44, 108);
  const nul = name.indexOf(0);
  const source = {
    cid: buf.toString('hex', 22, 38),
    name: name.toString('utf8', 0, nul < 0 ? name.length : nul),
    priority,
    sequence: buf[111]!,
  };
  return { ok: true, frame: { universe, slots: buf.subarray(SACN_HEADER), terminated: (options & 0x40) !== 0, source } };
}

export const readDmx = (protocol: DmxProtocol, buf: Buffer): DmxRead => (protocol === 'artnet' ? readArtDmx(buf) : readSacn(buf));

/** The standard port of each protocol. */
export const DMX_PORT: Record<DmxProtocol, number> = { artnet: 6454, sacn: 5568 };

export { sacnGroup } from '../shared/pixelmap/packets.js';
