// Art-Net ArtTimeCode in (src/dmx/timecode-wire.ts): each type, every malformed packet, and what is not ours.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readArtTimeCode } from '../../src/dmx/timecode-wire.js';
import { parseTimecode, type TcRate, type Timecode } from '../../src/shared/smpte.js';
import { artDmx, sacnData } from '../helpers/dmx.js';
import { artTimeCode } from '../helpers/timecode-packets.js';

const tc = (text: string): Timecode => parseTimecode(text)!;

const refused = (buf: Buffer, why: RegExp) => {
  const r = readArtTimeCode(buf);
  if (!r || r.ok) assert.unreachable(`not refused: ${buf.toString('hex')}`);
  assert.match((r as { reason: string }).reason, why);
};

test('ArtTimeCode reads at each type, with its stream', () => {
  const cases: [string, TcRate][] = [
    ['00:00:00:23', 24],
    ['23:59:59:24', 25],
    ['01:01:00:02', 29.97],
    ['01:10:00:00', 29.97],
    ['12:34:56:29', 30],
  ];
  for (const [text, rate] of cases) {
    for (const streamId of [0, 7, 255]) {
      assert.equal(readArtTimeCode(artTimeCode(tc(text), rate, { streamId })), { ok: true, tc: tc(text), rate, streamId });
    }
  }
  assert.is(readArtTimeCode(artTimeCode(tc('01:02:03:04'), 25, { protVer: 15 }))?.ok, true, 'a newer protocol');
});

test('the layout as a desk sends it: ID, OpTimeCode LE, ProtVer BE, filler, stream, FF SS MM HH, type', () => {
  const wire = Buffer.concat([Buffer.from('Art-Net\0', 'latin1'), Buffer.from([0x00, 0x97, 0, 14, 0, 3, 4, 3, 2, 1, 1])]);
  assert.equal(readArtTimeCode(wire), { ok: true, tc: tc('01:02:03:04'), rate: 25, streamId: 3 });
  assert.ok(artTimeCode(tc('01:02:03:04'), 25, { streamId: 3 }).equals(wire));
  const filler = Buffer.from(wire);
  filler[12] = 0xaa;
  assert.is(readArtTimeCode(filler)?.ok, true, 'Filler1 is ignored');
});

test('every malformed ArtTimeCode is refused, naming the byte', () => {
  const good = artTimeCode(tc('01:02:03:04'), 25);
  const at = (k: number, v: number) => {
    const b = Buffer.from(good);
    b[k] = v;
    return b;
  };
  refused(good.subarray(0, 18), /18 bytes/);
  refused(Buffer.concat([good, Buffer.from([0])]), /20 bytes/);
  refused(good.subarray(0, 10), /10 bytes/);
  refused(artTimeCode(tc('01:02:03:04'), 25, { protVer: 13 }), /bytes 10-11 \(protocol version\) 13/);
  refused(artTimeCode(tc('01:02:03:04'), 25, { protVer: 0 }), /bytes 10-11 \(protocol version\) 0 is below 14/);
  refused(at(18, 4), /byte 18 \(type\) 4/);
  refused(at(18, 0xff), /byte 18 \(type\) 255/);
  refused(at(14, 25), /byte 14 \(frames\) 25/);
  refused(artTimeCode(tc('00:00:00:24'), 24), /byte 14 \(frames\) 24/);
  refused(artTimeCode(tc('00:00:00:30'), 30), /byte 14 \(frames\) 30/);
  refused(artTimeCode(tc('00:00:00:30'), 29.97), /byte 14 \(frames\) 30/);
  refused(at(15, 60), /byte 15 \(seconds\) 60/);
  refused(at(16, 60), /byte 16 \(minutes\) 60/);
  refused(at(17, 24), /byte 17 \(hours\) 24/);
  refused(artTimeCode(tc('00:01:00:00'), 29.97), /00:01:00;00 .*drop-frame/);
  refused(artTimeCode(tc('10:59:00:01'), 29.97), /10:59:00;01/);
});

test('other Art-Net opcodes and non-Art-Net datagrams are not ours (null)', () => {
  assert.is(readArtTimeCode(artDmx(1, [1, 2, 3, 4])), null, 'ArtDmx');
  const poll = Buffer.alloc(14);
  poll.write('Art-Net\0', 0, 'latin1');
  poll.writeUInt16LE(0x2000, 8);
  assert.is(readArtTimeCode(poll), null, 'ArtPoll');
  const bigEndianOp = artTimeCode(tc('01:02:03:04'), 25);
  bigEndianOp.writeUInt16BE(0x9700, 8);
  assert.is(readArtTimeCode(bigEndianOp), null, 'the opcode is little-endian');
  assert.is(readArtTimeCode(sacnData(1, [1, 2])), null, 'sACN');
  const other = artTimeCode(tc('01:02:03:04'), 25);
  other.write('Art-Ne7', 0, 'latin1');
  assert.is(readArtTimeCode(other), null, 'wrong ID');
  assert.is(readArtTimeCode(Buffer.from('Art-Net\0\x00', 'latin1')), null, 'too short for an opcode');
  assert.is(readArtTimeCode(Buffer.alloc(0)), null);
});

test('random packets after the header never throw', () => {
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let i = 0; i < 5_000; i++) {
    const b = Buffer.from(Array.from({ length: rand(24) }, () => rand(0x100)));
    artTimeCode(tc('00:00:00:00'), 25).copy(b, 0, 0, Math.min(b.length, 10));
    readArtTimeCode(b);
  }
});

test.run();
