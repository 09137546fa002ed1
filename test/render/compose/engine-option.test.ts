// GL test of the engine's compose option: a two-layer stack composes in one pass by default and one pass per layer
// with compose.onePass false, with the same picture.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIsf } from '../../../src/catalog/isf-parse.js';
import { createFrameRing, FrameRingWriter } from '../../../src/shared/frame-ring.js';
import type { IsfDescriptor } from '../../../src/shared/isf-types.js';
import type { LayerWire, ThumbJob } from '../../../src/shared/protocol/render.js';
import { RenderEngine } from '../../../workers/render/engine.js';
import { createTestGl, ROOT, type Rgba } from '../../helpers/gl.js';

const W = 32;
const H = 18;
const gl = createTestGl(W, H);

async function builtinBlends(): Promise<IsfDescriptor[]> {
  const dir = join(ROOT, 'assets', 'blends');
  const out: IsfDescriptor[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.fs')).sort()) {
    out.push(parseIsf(await readFile(join(dir, name), 'utf8'), { file: `builtin:${name}`, fileName: name }));
  }
  return out;
}

function flatRing(colour: Rgba): SharedArrayBuffer {
  const ring = createFrameRing(W, H);
  const writer = new FrameRingWriter(ring);
  const px = writer.begin(W, H);
  for (let i = 0; i < W * H; i++) px.set(colour, i * 4);
  writer.commit();
  return ring;
}

const wire = (id: number, opacity: number, blend: string): LayerWire => ({
  id,
  opacity,
  blend,
  mute: false,
  solo: false,
  selected: id === 1,
});

/** An engine showing red on layer 1 and blue screened over it at 0.5 on layer 2, after a few frames. */
async function twoLayers(opts: { compose?: { onePass?: boolean } }, blends: IsfDescriptor[]): Promise<RenderEngine> {
  const e = new RenderEngine(gl, W, H, 30, 'test', null, opts);
  const results = e.setBlends(blends);
  assert.ok(
    results.every((r) => r.ok),
    JSON.stringify(results.filter((r) => !r.ok)),
  );
  e.setLayers([wire(1, 1, 'normal'), wire(2, 0.5, 'screen')]);
  e.requestSource(1, 'red', Date.now() + 10_000, { kind: 'ring', ring: flatRing([255, 0, 0, 255]), live: false }, 1);
  e.requestSource(2, 'blue', Date.now() + 10_000, { kind: 'ring', ring: flatRing([0, 0, 255, 255]), live: false }, 2);
  for (let i = 0; i < 3; i++) e.renderFrame();
  return e;
}

function centre(e: RenderEngine): number[] {
  const j: ThumbJob = {
    id: 1,
    subject: { kind: 'output' },
    width: 4,
    height: 4,
    slot: new SharedArrayBuffer(64),
    deadline: Date.now() + 10_000,
  };
  const r = e.thumb(j);
  if (!r.ok) throw new Error(`thumb failed: ${r.reason}`);
  return [...new Uint8Array(j.slot, (2 * 4 + 2) * 4, 4)];
}

test('compose.onePass false draws one pass per layer; the default one pass; the same picture', async () => {
  const blends = await builtinBlends();
  const one = await twoLayers({}, blends);
  const per = await twoLayers({ compose: { onePass: false } }, blends);
  try {
    assert.is(one.compositor.lastPasses(), 1, 'default: the stack in one pass');
    assert.is(per.compositor.lastPasses(), 2, 'onePass false: a pass per layer');
    const a = centre(one);
    const b = centre(per);
    assert.ok(
      a.every((v, i) => Math.abs(v - b[i]!) <= 2),
      `one pass ${a} vs per layer ${b}`,
    );
    // Screen of blue over red at 0.5: red stays full, blue rises to about half.
    assert.ok(a[0]! > 240 && a[2]! > 100 && a[2]! < 156, `composed picture ${a}`);
  } finally {
    one.destroy();
    per.destroy();
  }
});

test.run();
