// Previews are what costs least to lose: while the pipeline is short each preview group encodes every other tick
// (counted as ticksShed), and at full rate again once it keeps up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PreviewHub } from '../../src/outputs/preview.js';
import type { StreamSink } from '../../src/http/route.js';
import type { EncodePool } from '../../src/workers/encode-pool.js';
import { waitUntil } from '../helpers/server.js';
import { pino } from 'pino';

function sink(): StreamSink & { parts: number } {
  let closed: (() => void) | null = null;
  return {
    parts: 0,
    closed: false,
    backpressured: false,
    queuedBytes: 0,
    write() {
      this.parts++;
      return true;
    },
    end() {
      closed?.();
    },
    abort() {
      closed?.();
    },
    onDrain() {},
    onClose(cb) {
      closed = cb;
    },
  };
}

function hub(short: () => boolean): PreviewHub {
  let frame = 0;
  const encoder = { run: async () => ({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), frameNo: ++frame }) } as unknown as EncodePool;
  return new PreviewHub({
    encoder,
    ring: () => new SharedArrayBuffer(64),
    render: { width: 64, height: 36 },
    setActive: () => {},
    short,
    log: pino({ level: 'silent' }),
  });
}

test('short pipeline: every other tick is let pass and counted; a quiet one sheds nothing', async () => {
  let short = true;
  const h = hub(() => short);
  const s = sink();
  h.attach(s, 64, 30);
  try {
    await waitUntil(async () => h.stats().ticksShed >= 3 && h.stats().encodes >= 3, 10000, 20);
    const { encodes, ticksShed } = h.stats();
    assert.ok(Math.abs(encodes - ticksShed) <= 2, `half the ticks shed: ${encodes} encodes, ${ticksShed} shed`);
    short = false;
    const shed = h.stats().ticksShed;
    const before = h.stats().encodes;
    await waitUntil(async () => h.stats().encodes >= before + 6, 10000, 20);
    assert.is(h.stats().ticksShed, shed, 'no tick shed once the pipeline keeps up');
    assert.ok(s.parts > 0);
  } finally {
    h.stop();
  }
});

test.run();
