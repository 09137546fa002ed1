// Art-Net ArtTimeCode (OpTimeCode 0x9700) in, strictly: one fixed 19-byte layout checked field by field and refused
// at the first wrong byte. Other opcodes and non-Art-Net datagrams are not ours (null): the DMX readers take them.
import { labelProblem, type TcRate, type Timecode } from '../shared/smpte.js';

export type ArtTimeCodeRead = { ok: true; tc: Timecode; rate: TcRate; streamId: number } | { ok: false; reason: string };

const ARTNET_ID = Buffer.from('Art-Net\0', 'latin1');
const OP_TIMECODE = 0x9700;
const PACKET_BYTES = 19;
/** The Type byte: Film, EBU, DF (29.97 drop-frame), SMPTE. */
const TYPES: readonly TcRate[] = [24, 25, 29.97, 30];
const NAMES = { frames: 'byte 14', seconds: 'byte 15', minutes: 'byte 16', hours: 'byte 17' };

const refused = (reason: string): ArtTimeCodeRead => ({ ok: false, reason: `ArtTimeCode: ${reason}` });

/** ID, OpCode (LE), ProtVer (BE, at least 14), Filler1 (ignored, as Art-Net asks), StreamId, frames..hours, Type. */
export function readArtTimeCode(buf: Buffer): ArtTimeCodeRead | null {
  if (buf.length < 10 || buf.compare(ARTNET_ID, 0, ARTNET_ID.length, 0, ARTNET_ID.length) !== 0) return null;
  if (buf.readUInt16LE(8) !== OP_TIMECODE) return null;
  if (buf.length !== PACKET_BYTES) return refused(`${buf.length} bytes, not ${PACKET_BYTES}`);
  const version = buf.readUInt16BE(10);
  if (version < 14) return refused(`bytes 10-11 (protocol version) ${version} is below 14`);
  const type = buf[18]!;
  const rate = TYPES[type];
  if (rate === undefined) return refused(`byte 18 (type) ${type} is not 0-3`);
  const tc = { hours: buf[17]!, minutes: buf[16]!, seconds: buf[15]!, frames: buf[14]! };
  const problem = labelProblem(tc, rate, NAMES);
  return problem ? refused(problem) : { ok: true, tc, rate, streamId: buf[13]! };
}
