// The compile helper: new fused runs are compiled in a separate process first (so Mesa's on-disk shader cache
// holds them before the render thread links and warms them up); until it answers the run is drawn unfused; a
// helper that is gone leaves the render thread compiling by itself.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CompileHelper } from '../../workers/render/fuse/compile-helper.js';
import { Fuser, type FuseSlot } from '../../workers/render/fuse/fuser.js';
import { H, W, byType, gl, programOf, quad, releaseAll } from '../helpers/fuse-compare.js';

const slotsOf = (types: string[]): FuseSlot[] => types.map((t) => ({ inputs: {}, instance: { program: programOf(byType(t)) } }));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Plans `types` until the fuser draws them as one fused run, doing its compile steps as the idle time would. */
async function untilFused(fuser: Fuser, types: string[]): Promise<void> {
  await until(`${types.join('>')} fused`, () => {
    while (fuser.compileNext());
    return fuser.plan(slotsOf(types)).length === 1;
  });
}

let cacheDir = '';
const savedEnv = { dir: process.env.MESA_SHADER_CACHE_DIR, off: process.env.MESA_SHADER_CACHE_DISABLE };

test.before(async () => {
  // The helper process reads these at start: a private, empty cache shows what the helper writes.
  cacheDir = await mkdtemp(join(tmpdir(), 'vjd-mesa-cache-'));
  process.env.MESA_SHADER_CACHE_DIR = cacheDir;
  delete process.env.MESA_SHADER_CACHE_DISABLE;
});

test.after(async () => {
  releaseAll();
  if (savedEnv.dir === undefined) delete process.env.MESA_SHADER_CACHE_DIR;
  else process.env.MESA_SHADER_CACHE_DIR = savedEnv.dir;
  if (savedEnv.off !== undefined) process.env.MESA_SHADER_CACHE_DISABLE = savedEnv.off;
  await rm(cacheDir, { recursive: true, force: true });
});

test('a new run stays unfused until the helper compiled it, then fuses; the helper filled the shader cache', async () => {
  const helper = new CompileHelper(W, H);
  const fuser = new Fuser(gl, quad, W, H, true, helper);
  fuser.onLog = (msg, fields) => assert.unreachable(`${msg} ${JSON.stringify(fields)}`);
  try {
    const types = ['hue_shift', 'posterize', 'scanlines'];
    const steps = fuser.plan(slotsOf(types));
    assert.is(steps.length, 3, 'drawn unfused while the helper compiles');
    assert.not.ok(fuser.compileNext(), 'nothing to compile here before the helper answered');
    await until('the helper to answer', () => helper.answered === 1);
    await until('cache entries from the helper', async () => (await readdir(cacheDir)).length > 0);
    await untilFused(fuser, types);
    assert.equal(fuser.stats().fusedRuns, [types]);
    assert.ok(helper.running);
  } finally {
    fuser.destroy();
  }
  assert.not.ok(helper.running, 'destroying the fuser stops its helper');
});

test('when the helper is gone, runs are compiled by the render thread alone', async () => {
  const helper = new CompileHelper(W, H);
  const fuser = new Fuser(gl, quad, W, H, true, helper);
  try {
    await untilFused(fuser, ['invert', 'saturation']);
    process.kill(helper.pid!, 'SIGKILL');
    await until('the helper to be seen gone', () => !helper.running);
    await untilFused(fuser, ['saturation', 'invert', 'vignette']);
    assert.is(helper.answered, 1, 'the second run was not the helper’s');
  } finally {
    fuser.destroy();
  }
});

test('a shader that does not compile is reported by the render thread once, and its run stays unfused', async () => {
  const helper = new CompileHelper(W, H);
  const fuser = new Fuser(gl, quad, W, H, true, helper);
  const logs: unknown[] = [];
  fuser.onLog = (msg, fields) => logs.push({ msg, fields });
  const broken = {
    ...byType('invert'),
    type: 'broken_op',
    fragment: 'void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * undefined_name; }',
  };
  try {
    const slots: FuseSlot[] = [
      { inputs: {}, instance: { program: { ...programOf(byType('invert')), desc: broken } as never } },
      { inputs: {}, instance: { program: programOf(byType('saturation')) } },
    ];
    fuser.plan(slots);
    await until('the helper to answer', () => helper.answered === 1);
    while (fuser.compileNext());
    assert.is(fuser.plan([...slots]).length, 2, 'unfused');
    assert.is(logs.length, 1);
  } finally {
    fuser.destroy();
  }
});

test.run();
