// The packets the sender writes (src/pixelmap/packets.ts) pass vjd's own strict readers (src/dmx/wire.ts), and
// the two sync packets (which those readers never take for data) have the layouts of Art-Net 4 (ArtSync) and E1.31-2016 section 6.3 (universe sync).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readArtDmx, readSacn } from '../../src/dmx/wire.js';
import { artDmxPacket, artSyncPacket, newCid, sacnDataPacket, sacnSyncPacket } from '../../src/shared/pixelmap/packets.js';
import { addressOf } from '../../workers/pixelout/targets.js';

const slots = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 1) & 0xff);
const frameOf = (r: ReturnType<typeof readArtDmx>) => {
  if (!r.ok || !r.frame) assert.unreachable(`not read: ${JSON.stringify(r)}`);
  return (r as { frame: NonNullable<Extract<typeof r, { ok: true }>['frame']> }).frame;
};

test('ArtDmx: read back with its universe and slots, padded to an even length', () => {
  for (const [universe, n] of [
    [0, 512],
    [0x1234, 90],
    [32767, 3],
    [5, 1],
  ] as const) {
    const b = artDmxPacket(universe, 7, slots(n));
    const f = frameOf(readArtDmx(b));
    assert.is(f.universe, universe);
    const even = Math.max(2, n + (n % 2));
    assert.is(f.slots.length, even);
    assert.equal([...f.slots.subarray(0, n)], [...slots(n)]);
    if (even > n) assert.is(f.slots[n], 0, 'the pad slot is zero');
    assert.is(b[12], 7, 'sequence');
    assert.is(b.readUInt16LE(8), 0x5000);
    assert.is(b.readUInt16BE(10), 14);
  }
  assert.equal([artDmxPacket(0x0102, 1, slots(2))[14], artDmxPacket(0x0102, 1, slots(2))[15]], [0x02, 0x01], 'SubUni, then Net');
});

test('sACN data: read back with universe, slots, CID, name, priority 100, sequence; options and sync address', () => {
  const cid = newCid();
  assert.is(cid.length, 16);
  const b = sacnDataPacket({ cid, name: 'vjd pixel map' }, 63999, 200, slots(510));
  const f = frameOf(readSacn(b));
  assert.is(f.universe, 63999);
  assert.equal([...f.slots], [...slots(510)]);
  assert.equal(f.source, { cid: cid.toString('hex'), name: 'vjd pixel map', priority: 100, sequence: 200 });
  assert.is(f.terminated, false);
  assert.is(b.readUInt16BE(109), 0, 'no sync address');
  const synced = sacnDataPacket({ cid, name: 'x' }, 3, 0, slots(1), { syncUniverse: 7, terminated: true });
  assert.is(synced.readUInt16BE(109), 7);
  assert.is(frameOf(readSacn(synced)).terminated, true);
  assert.is(frameOf(readSacn(sacnDataPacket({ cid, name: 'x' }, 1, 0, slots(512)))).slots.length, 512);
  // The name field keeps a NUL and never cuts a character in half.
  const long = sacnDataPacket({ cid, name: 'é'.repeat(40) }, 1, 0, slots(3));
  assert.is(frameOf(readSacn(long)).source!.name, 'é'.repeat(31));
  assert.is(long[44 + 63], 0);
});

test('ArtSync: 14 bytes, OpSync 0x5200, version 14, Aux1 and Aux2 zero; not ArtDmx to a reader', () => {
  const b = artSyncPacket();
  assert.is(b.length, 14);
  assert.is(b.toString('latin1', 0, 8), 'Art-Net\0');
  assert.equal([...b.subarray(8)], [0x00, 0x52, 0, 14, 0, 0]);
  // vjd's reader takes ArtDmx only: the sync is never mistaken for data.
  const r = readArtDmx(b);
  assert.ok(!r.ok || r.frame === null, 'no data');
});

test('sACN universe sync: 49 bytes, extended root vector, sync framing with sequence and address', () => {
  const cid = newCid();
  const b = sacnSyncPacket(cid, 9, 0x0203);
  assert.is(b.length, 49);
  assert.equal([b.readUInt16BE(0), b.readUInt16BE(2)], [0x0010, 0]);
  assert.is(b.toString('latin1', 4, 16), 'ASC-E1.17\0\0\0');
  assert.is(b.readUInt16BE(16), 0x7000 | 33, 'root flags and length');
  assert.is(b.readUInt32BE(18), 0x00000008, 'VECTOR_ROOT_E131_EXTENDED');
  assert.ok(b.subarray(22, 38).equals(cid));
  assert.is(b.readUInt16BE(38), 0x7000 | 11, 'framing flags and length');
  assert.is(b.readUInt32BE(40), 0x00000001, 'VECTOR_E131_EXTENDED_SYNCHRONIZATION');
  assert.is(b[44], 9, 'sequence');
  assert.is(b.readUInt16BE(45), 0x0203, 'synchronization address');
  assert.is(b.readUInt16BE(47), 0, 'reserved');
  const r = readSacn(b);
  assert.ok(!r.ok || r.frame === null, 'never read as data');
});

test('targets: only an allowed destination, broadcast for Art-Net, one multicast group per sACN universe', () => {
  const allowed = ['10.0.0.7', 'broadcast', 'multicast'];
  assert.is(addressOf('artnet', '10.0.0.7', 0, allowed), '10.0.0.7');
  assert.is(addressOf('artnet', '10.0.0.8', 0, allowed), null);
  assert.is(addressOf('artnet', 'broadcast', 0, allowed), '255.255.255.255');
  assert.is(addressOf('sacn', 'broadcast', 1, allowed), null);
  assert.is(addressOf('sacn', 'multicast', 0x0102, allowed), '239.255.1.2');
  assert.is(addressOf('artnet', 'multicast', 1, allowed), null);
  assert.is(addressOf('artnet', 'example.com', 1, ['example.com']), null, 'names are never resolved');
});

test.run();
