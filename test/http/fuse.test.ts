// Fused effect runs seen over real HTTP: /status names the runs drawn as one pass and counts the passes, and
// config render.fuse=false keeps every effect in its own pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { req, startServer, waitUntil, type TestServer } from '../helpers/server.js';

// blur is two-pass with a scaled copy (PASSES), so it splits the chain: [hue_shift, saturation] blur [invert, posterize].
const CHAIN = ['hue_shift', 'saturation', 'blur', 'invert', 'posterize'];

async function withServer(fuse: boolean | undefined, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const render: Record<string, unknown> = { width: 320, height: 180, fps: 30 };
  if (fuse !== undefined) render.fuse = fuse;
  const s = await startServer({ config: { render } });
  try {
    await fn(s);
  } finally {
    await s.cleanup();
  }
}

const status = async (
  s: TestServer,
): Promise<{ passes: number; fusedRuns: string[][]; frames: number; fusedPrograms: { cached: number; limit: number } }> =>
  (await req('GET', `${s.base}/api/v1/status`)).json().render;

async function addChain(s: TestServer): Promise<void> {
  for (const type of CHAIN) assert.is((await req('POST', `${s.base}/api/v1/effects/add`, { body: { type } })).status, 200);
}

let framesToFuse = 0;

test('by default runs of fusable effects become one pass each; a disabled effect leaves its run', async () => {
  await withServer(undefined, async (s) => {
    await waitUntil(async () => (await status(s)).frames > 0, 30000);
    const before = (await status(s)).frames;
    await addChain(s);
    await waitUntil(
      async () => JSON.stringify((await status(s)).fusedRuns) === '[["hue_shift","saturation"],["invert","posterize"]]',
      60000,
      100,
    );
    framesToFuse = (await status(s)).frames - before;
    const r = await status(s);
    // Both runs' programs are held (maybe also ones of the chain on its way, while effects were added one by one).
    assert.ok(r.fusedPrograms.cached >= 2 && r.fusedPrograms.cached <= r.fusedPrograms.limit, JSON.stringify(r.fusedPrograms));
    const blurPasses = r.passes - 2;
    assert.ok(blurPasses >= 2, `blur is multi-pass (passes ${r.passes})`);
    // saturation off: hue_shift stands alone, the other run stays fused.
    assert.is((await req('POST', `${s.base}/api/v1/effects/enabled`, { body: { index: 2, enabled: false } })).status, 200);
    await waitUntil(async () => JSON.stringify((await status(s)).fusedRuns) === '[["invert","posterize"]]', 30000, 100);
    assert.is((await status(s)).passes, 1 + blurPasses + 1);
  });
});

test('render.fuse=false: every effect keeps its own pass', async () => {
  await withServer(false, async (s) => {
    await addChain(s);
    await waitUntil(async () => (await status(s)).passes >= CHAIN.length + 1, 30000, 100);
    const start = (await status(s)).frames;
    // Several times as many frames as fusing took with fusion on, and at least three seconds' worth.
    await waitUntil(async () => (await status(s)).frames - start > Math.max(90, 3 * framesToFuse), 60000, 200);
    const r = await status(s);
    assert.equal(r.fusedRuns, []);
    assert.ok(r.passes > CHAIN.length, `one pass per effect and blur's own (${r.passes})`);
  });
});

test.run();
