// Matroska framing for an output's ffmpeg stdin: raw program frames (I420 or RGBA, top-down), each with its slot's
// timestamp, so a slot that could not be written leaves a gap in the timeline instead of shortening it. A live
// stream (unknown-size segment), one small cluster per frame; the only per-frame work is a fixed-size header in
// front of the pixels.
import type { PixelLayout } from '../../src/shared/frame-ring.js';

/** Timestamps are in microseconds, so slot times at any fps stay exact to well under a frame. */
const TIMESTAMP_SCALE_NS = 1000;
/** Bytes of the header written in front of each frame's pixels. */
export const FRAME_HEADER_BYTES = 35;

/** An EBML size in its eight-byte form, which holds any size an output frame can have. */
function size8(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt8(0x01, 0);
  b.writeUIntBE(n, 2, 6);
  return b;
}

/** Element ids are written as their bytes (the width marker is part of the id). */
function el(id: number, body: Buffer): Buffer {
  const idBytes = Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([idBytes, size8(body.length), body]);
}

function uint(id: number, v: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(v));
  return el(id, b);
}

const text = (id: number, s: string): Buffer => el(id, Buffer.from(s, 'latin1'));

/**
 * The stream header: EBML, an open-ended segment, and one uncompressed video track of this size, layout and rate.
 * I420 comes tagged BT.709 limited range, so every ffmpeg reading it knows its colours without guessing.
 */
export function mkvHeader(frame: { width: number; height: number; layout: PixelLayout }, fps: number): Buffer {
  const { width, height } = frame;
  const ebml = el(
    0x1a45dfa3,
    Buffer.concat([
      uint(0x4286, 1),
      uint(0x42f7, 1),
      uint(0x42f2, 4),
      uint(0x42f3, 8),
      text(0x4282, 'matroska'),
      uint(0x4287, 4),
      uint(0x4285, 2),
    ]),
  );
  // The segment's size is unknown (all ones): ffmpeg reads clusters until the pipe closes.
  const segment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  const info = el(0x1549a966, Buffer.concat([uint(0x2ad7b1, TIMESTAMP_SCALE_NS), text(0x4d80, 'vjd'), text(0x5741, 'vjd')]));
  const fourcc = Buffer.from(frame.layout === 'i420' ? 'I420' : 'RGBA', 'latin1');
  // Colour: matrix, range (1 = broadcast), transfer and primaries, each 1 = BT.709.
  const colour = el(0x55b0, Buffer.concat([uint(0x55b1, 1), uint(0x55b9, 1), uint(0x55ba, 1), uint(0x55bb, 1)]));
  const video = el(
    0xe0,
    Buffer.concat([uint(0xb0, width), uint(0xba, height), el(0x2eb524, fourcc), ...(frame.layout === 'i420' ? [colour] : [])]),
  );
  const track = el(
    0xae,
    Buffer.concat([
      uint(0xd7, 1),
      uint(0x73c5, 1),
      uint(0x83, 1),
      uint(0x9c, 0),
      // The nominal frame duration tells ffmpeg the rate without it probing frames first.
      uint(0x23e383, Math.round(1e9 / fps)),
      text(0x86, 'V_UNCOMPRESSED'),
      video,
    ]),
  );
  return Buffer.concat([ebml, segment, info, el(0x1654ae6b, track)]);
}

/** The cluster and block header that goes in front of `pixelBytes` of one frame shown at `timeUs`. */
export function mkvFrameHeader(timeUs: number, pixelBytes: number): Buffer {
  const h = Buffer.alloc(FRAME_HEADER_BYTES);
  // Cluster: id, size (timestamp element + block element), then the cluster's timestamp.
  h.writeUInt32BE(0x1f43b675, 0);
  size8(10 + 9 + 4 + pixelBytes).copy(h, 4);
  h.writeUInt8(0xe7, 12);
  h.writeUInt8(0x88, 13);
  h.writeBigUInt64BE(BigInt(Math.max(0, Math.round(timeUs))), 14);
  // SimpleBlock: id, size, track 1, time relative to the cluster (0), keyframe flag.
  h.writeUInt8(0xa3, 22);
  size8(4 + pixelBytes).copy(h, 23);
  h.writeUInt8(0x81, 31);
  h.writeInt16BE(0, 32);
  h.writeUInt8(0x80, 34);
  return h;
}
