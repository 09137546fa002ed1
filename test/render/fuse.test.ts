// Fused effect runs against the unfused chain on headless-gl: the analysis, the run splitting, seeded random runs
// of 3-8 fusable built-ins with random parameter values, two copies of one type, a run between non-fusable
// effects, an operator-style file and a failing compile. Every ordered pair: fuse-pairs-*.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IsfDescriptor, IsfInput } from '../../src/shared/isf-types.js';
import { analyze, type Fusable } from '../../workers/render/fuse/analyze.js';
import { fusedFragment } from '../../workers/render/fuse/codegen.js';
import { warmUpSize } from '../../workers/render/fuse/warm-up.js';
import { Fuser, fusableRuns, type FuseSlot } from '../../workers/render/fuse/fuser.js';
import type { IsfProgram } from '../../workers/render/isf-program.js';
import {
  H,
  W,
  byType,
  compare,
  countCopies,
  fusable,
  fused,
  gl,
  pick,
  programOf,
  quad,
  rand,
  randomInputs,
  releaseAll,
  started,
} from '../helpers/fuse-compare.js';

test('the analysis fuses the single-read, single-pass built-ins and refuses the others', () => {
  const names = fusable.map((d) => d.type);
  for (const t of [
    'hue_shift',
    'saturation',
    'levels',
    'posterize',
    'invert',
    'mirror',
    'kaleidoscope',
    'rotate_zoom',
    'swirl',
    'wave_distort',
    'pixelate',
    'tile',
    'vignette',
    'scanlines',
  ]) {
    assert.ok(names.includes(t), `${t} should fuse`);
  }
  // Several reads (rgb_split, sharpen, edge_detect, glitch, halftone), PASSES (blur, bloom, trails, feedback).
  for (const t of ['rgb_split', 'sharpen', 'edge_detect', 'glitch', 'halftone', 'blur', 'bloom', 'trails', 'feedback']) {
    assert.not.ok(names.includes(t), `${t} must not fuse`);
  }
  assert.is(analyze(byType('hue_shift')).fusable && (analyze(byType('hue_shift')) as { read: string }).read, 'pixel');
  assert.is(analyze(byType('kaleidoscope')).fusable && (analyze(byType('kaleidoscope')) as { read: string }).read, 'remap');
  // Unsure means no: a read in a loop, a second image, a read outside main.
  const variant = (fragment: string, extra: IsfInput[] = []): IsfDescriptor => ({
    ...byType('invert'),
    fragment,
    inputs: [...byType('invert').inputs, ...extra],
  });
  assert.not.ok(
    analyze(variant('void main() { vec4 c = vec4(0.0); for (int i = 0; i < 2; i++) c += IMG_THIS_PIXEL(inputImage); gl_FragColor = c; }'))
      .fusable,
  );
  assert.not.ok(analyze(variant('void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }', [{ name: 'other', type: 'image' }])).fusable);
  assert.not.ok(analyze(variant('vec4 f() { return IMG_THIS_PIXEL(inputImage); }\nvoid main() { gl_FragColor = f(); }')).fusable);
  assert.not.ok(analyze(variant('void main() { gl_FragColor = texture2D(inputImage, isf_FragNormCoord); }')).fusable);
  assert.ok(
    analyze(variant('void main() { if (TIME > 1.0) { gl_FragColor = IMG_THIS_PIXEL(inputImage); return; } gl_FragColor = vec4(1.0); }'))
      .fusable,
  );
});

test('an operator-style effect: helpers after main, a macro, an early return, a global shared name', () => {
  const custom: IsfDescriptor = {
    ...byType('invert'),
    type: 'custom_op',
    inputs: [
      { name: 'inputImage', type: 'image' },
      { name: 'gain', type: 'float', default: 1.5, min: 0, max: 4 },
    ],
    fragment: [
      '#define TAU 6.2831853',
      'const float amount = 0.25;',
      'vec3 shape(vec3 c);',
      'void main() {',
      '  vec4 c = IMG_NORM_PIXEL(inputImage, isf_FragNormCoord);',
      '  if (gl_FragCoord.x < 8.0) { gl_FragColor = vec4(c.bgr, 1.0); return; }',
      '  gl_FragColor = vec4(shape(c.rgb), c.a);',
      '}',
      'vec3 shape(vec3 c) { return clamp(c * gain + amount * sin(TAU * isf_FragNormCoord.x), 0.0, 1.0); }',
    ].join('\n'),
  };
  assert.ok(analyze(custom).fusable);
  const runs = compare([
    { desc: byType('invert'), inputs: { amount: 0.7 } },
    { desc: custom, inputs: { gain: 0.8 } },
    // Gains of 2 and more turn a 1/255 difference in how the GPU rounds to 8 bits (it is not exactly
    // floor(x * 255 + 0.5) at every value) into more than the 2/255 tolerance; the built-ins stay within it.
    { desc: custom, inputs: { gain: 1.5 } },
  ]);
  assert.equal(runs, [['invert', 'custom_op', 'custom_op']]);
});

test('runs: a remap starts a run, pixel reads extend it, non-fusable effects split the chain', () => {
  const t = (...types: string[]): IsfDescriptor[] => types.map(byType);
  assert.equal(fusableRuns(t('hue_shift', 'saturation', 'blur', 'invert', 'posterize')), [
    [0, 2],
    [3, 5],
  ]);
  assert.equal(fusableRuns(t('hue_shift', 'kaleidoscope', 'invert')), [[1, 3]]);
  assert.equal(fusableRuns(t('mirror', 'kaleidoscope')), []);
});

test('random runs of 3-8 fusable effects with random values: fused equals unfused', () => {
  const pixel = fusable.filter((d) => (analyze(d) as { read: string }).read === 'pixel');
  for (let n = 0; n < 24; n++) {
    const len = 3 + Math.floor(rand() * 6);
    // Mostly one long run (a random first effect, then pixel reads); sometimes any fusable effect anywhere.
    const mixed = n % 3 === 2;
    const chain = Array.from({ length: len }, (_, i) => {
      const d = i === 0 || mixed ? pick(fusable) : pick(pixel);
      return { desc: d, inputs: randomInputs(d) };
    });
    const runs = compare(chain, rand() * 10);
    if (!mixed) assert.equal(runs, [chain.map((c) => c.desc.type)], 'drawn as one fused pass');
  }
});

test('two copies of one type keep their own values; a value change needs no recompile', () => {
  const hue = byType('hue_shift');
  const runs = compare([
    { desc: byType('levels'), inputs: { gamma: 1.4 } },
    { desc: hue, inputs: { shift: 0.1 } },
    { desc: hue, inputs: { shift: 0.55 } },
  ]);
  assert.equal(runs, [['levels', 'hue_shift', 'hue_shift']]);
  // Same chain, other values: the fused program of the first comparison serves (the planner queues nothing).
  compare([
    { desc: byType('levels'), inputs: { gamma: 0.7 } },
    { desc: hue, inputs: { shift: 0.8 } },
    { desc: hue, inputs: { shift: 0.05, speed: 0.3 } },
  ]);
  assert.not.ok(fused.compileNext(), 'no compile work for new values');
});

test('only effects that feed another are quantized to 8 bits (the last one is rounded by its target, as unfused)', () => {
  const run = ['invert', 'posterize', 'saturation'].map((t) => ({ desc: byType(t), analysis: analyze(byType(t)) as Fusable }));
  const code = fusedFragment(run);
  for (const k of [1, 2]) assert.match(code.slice(code.indexOf(`vec4 fx${k}(`), code.indexOf(`vec4 fx${k + 1}(`)), 'return fx_q(fx_out);');
  assert.not.match(code.slice(code.indexOf('vec4 fx3(')), 'fx_q(');
  // A multiply by 1/255, not a divide by 255 (a third of the quantize cost on llvmpipe).
  assert.not.match(code, /vec4 fx_q\(vec4 c\) \{[^\n]*\) \/ 255\.0;/);
  assert.equal(compare(run.map(({ desc }) => ({ desc, inputs: randomInputs(desc) }))), [['invert', 'posterize', 'saturation']]);
});

test('the warm-up draw uses a target whose sides are powers of two where the frame’s are (llvmpipe keys variants on it)', () => {
  const pot = (n: number): boolean => (n & (n - 1)) === 0;
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
    [1024, 512],
    [64, 36],
    [640, 1024],
    [W, H],
  ] as const) {
    const [x, y] = warmUpSize(w, h);
    assert.is(pot(x), pot(w), `${w}×${h} → ${x}×${y}`);
    assert.is(pot(y), pot(h), `${w}×${h} → ${x}×${y}`);
    assert.ok(x * y <= 16, 'tiny');
  }
});

test('a fused run between two non-fusable effects', () => {
  const runs = compare([
    { desc: byType('blur'), inputs: { radius: 5 } },
    { desc: byType('kaleidoscope'), inputs: { segments: 5, zoom: 1.3 } },
    { desc: byType('posterize'), inputs: { levels: 5 } },
    { desc: byType('vignette'), inputs: {} },
    { desc: byType('scanlines'), inputs: { spacing: 3 } },
    { desc: byType('rgb_split'), inputs: { amount: 0.03 } },
  ]);
  assert.equal(runs, [['kaleidoscope', 'posterize', 'vignette', 'scanlines']]);
  assert.is(fused.stats().passes, 1 + byType('blur').passes.length + countCopies([{ desc: byType('blur') }]) + 1);
});

test('a run that does not compile is logged once and drawn unfused', () => {
  const broken: IsfDescriptor = {
    ...byType('invert'),
    type: 'broken_fuse',
    fragment: 'void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * undefinedThing; }',
  };
  const logs: unknown[] = [];
  const f = new Fuser(gl, quad, W, H, true);
  f.onLog = (msg, fields) => logs.push({ msg, fields });
  // The unfused program of the broken type cannot compile either; a stand-in draws it (the planner never calls it).
  const slots: FuseSlot[] = [
    { inputs: {}, instance: { program: programOf(byType('invert')) } },
    { inputs: {}, instance: { program: { desc: broken, render: () => {} } as unknown as IsfProgram } },
  ];
  f.plan(slots);
  while (f.compileNext());
  f.plan([...slots]);
  f.plan([...slots]);
  while (f.compileNext());
  assert.is(logs.length, 1);
  assert.match(JSON.stringify(logs[0]), /broken_fuse/);
  assert.equal(f.stats().fusedRuns, []);
  assert.is(f.stats().passes, 2);
  f.destroy();
});

test('the fused-program cache holds at most its size, the least recently drawn run dropped first; stats count it', () => {
  const f = new Fuser(gl, quad, W, H, true, null, 2);
  const slots = (types: string[]): FuseSlot[] => types.map((t) => ({ inputs: {}, instance: { program: programOf(byType(t)) } }));
  const chains = [
    ['invert', 'hue_shift'],
    ['hue_shift', 'invert'],
    ['invert', 'levels'],
  ];
  for (const [i, chain] of chains.entries()) {
    f.plan(slots(chain));
    while (f.compileNext());
    assert.equal(f.programs(), { cached: Math.min(i + 1, 2), limit: 2 });
  }
  // The first chain was dropped: planning it again queues a compile and draws it unfused meanwhile.
  f.plan(slots(chains[0]!));
  assert.equal(f.stats().fusedRuns, []);
  assert.ok(f.compileNext(), 'the dropped run compiles again');
  f.destroy();
});

test.after(() => {
  process.stdout.write(`fuse test: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  releaseAll();
});

test.run();
