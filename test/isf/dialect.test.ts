// The desktop-GLSL rewrite on a real headless-gl context: every habit of test/fixtures/isf-compat draws the picture of
// its GLSL ES twin (es/), valid files compile as written without a rewrite, GLSL ES 3.00 files get an error naming
// the feature, and hostile or still-broken sources give the original error.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseIsf } from '../../src/catalog/isf-parse.js';
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { dialectStats } from '../../workers/render/glsl-dialect/retry.js';
import { rewriteDialect } from '../../workers/render/glsl-dialect/rewrite.js';
import { buildIsfSources, IsfCompileError, linkProgram } from '../../workers/render/isf-glsl.js';
import { IsfProgram } from '../../workers/render/isf-program.js';
import { Quad } from '../../workers/render/gl-util.js';
import { createTestGl, renderIsf, ROOT, type Rgba } from '../helpers/gl.js';

const DIR = join(ROOT, 'test', 'fixtures', 'isf-compat');
const S = 32;
const gl = createTestGl(S, S);

export const HABITS = [
  'int_literal',
  'vector_scale',
  'float_times_int',
  'builtin_int_args',
  'int_float_mix',
  'loop_bound',
  'return_type',
  'ternary_assign',
  'user_fn_args',
  'define_macros',
];

async function fixture(name: string, twin = false): Promise<IsfDescriptor> {
  const fileName = `${name}.fs`;
  const text = await readFile(join(DIR, twin ? 'es' : '', fileName), 'utf8');
  return parseIsf(text, { file: fileName, fileName });
}

const fromText = (text: string, name = 'hostile'): IsfDescriptor => parseIsf(text, { file: `${name}.fs`, fileName: `${name}.fs` });

// A gradient with every channel varying, so a conversion that changed a value would show.
const gradient = (x: number, y: number): Rgba => [(x * 255) / (S - 1), (y * 255) / (S - 1), ((x + y) * 255) / (2 * S - 2), 255];

function draw(desc: IsfDescriptor): Uint8Array {
  return renderIsf(gl, desc, { width: S, height: S, input: desc.kind === 'effect' ? gradient : undefined, frames: 2 }).pixels;
}

/** The error the file as written gives (the compile path without the rewrite). */
function originalError(desc: IsfDescriptor): string {
  const src = buildIsfSources(desc);
  try {
    gl.deleteProgram(linkProgram(gl, src.vertex, src.fragment, src.vertexOffset, src.fragmentOffset));
  } catch (err) {
    return (err as IsfCompileError).log;
  }
  throw new Error(`${desc.type} compiles as written`);
}

function createError(desc: IsfDescriptor): IsfCompileError {
  const quad = new Quad(gl);
  try {
    IsfProgram.create(gl, desc, S, S, quad).destroy();
  } catch (err) {
    assert.instance(err, IsfCompileError);
    return err as IsfCompileError;
  } finally {
    quad.destroy();
  }
  throw new Error(`${desc.type} compiled`);
}

for (const name of HABITS) {
  test(`${name}: rewritten only because it fails, and draws what its GLSL ES twin draws`, async () => {
    const habit = await fixture(name);
    const twin = await fixture(name, true);
    originalError(habit);
    const before = { ...dialectStats };
    const got = draw(habit);
    assert.is(dialectStats.rewritten, before.rewritten + 1, 'the habit compiled through the rewrite');
    const afterHabit = { ...dialectStats };
    const want = draw(twin);
    assert.equal(dialectStats, afterHabit, 'the twin compiled as written: no rewrite attempted');
    let worst = 0;
    for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
    assert.ok(worst <= 1, `pixels differ by ${worst}`);
    let lit = 0;
    for (let i = 0; i < want.length; i += 4) if (want[i]! + want[i + 1]! + want[i + 2]! > 0) lit++;
    assert.ok(lit > 0, 'the twin draws something');
  });
}

test('a second instance of a rewritten file compiles the rewrite directly (spares, a second add)', async () => {
  const habit = await fixture('vector_scale');
  draw(habit);
  const before = { ...dialectStats };
  draw(habit);
  draw(habit);
  assert.equal(dialectStats, before);
});

test('valid ISF files of every feature compile as written: no rewrite attempted', async () => {
  for (const name of [
    'multi_pass',
    'persistent_feedback',
    'audio_reactive',
    'input_types',
    'image_macros',
    'palette_bands',
    'transition_wipe',
  ]) {
    const before = { ...dialectStats };
    draw(await fixture(name));
    assert.equal(dialectStats, before, name);
  }
});

test('GLSL ES 3.00 files: an error naming the feature, its file line, and that WebGL 1 cannot run it', async () => {
  const cases: Array<[string, string, number]> = [
    ['es3_uvec', 'uvec2', 6],
    ['es3_array_constructor', 'array constructors', 6],
    ['es3_version_texture', '#version 300 es', 5],
    ['es3_bit_ops', 'bit operators', 8],
  ];
  for (const [name, feature, line] of cases) {
    const err = createError(await fixture(name));
    assert.ok(err.log.includes(feature), `${name}: ${err.log}`);
    assert.ok(err.log.includes('GLSL ES 3.00') && err.log.includes('WebGL 1'), err.log);
    assert.ok(err.log.startsWith(`line ${line}:`), err.log);
  }
});

test("a habit file with a real error too: the original error with its file line, not the rewrite's", async () => {
  const desc = fromText(`/*{ "INPUTS": [] }*/
void main() {
  float a = 1;
  gl_FragColor = vec4(a, notDeclared, 0.0, 1.0);
}`);
  const original = originalError(desc);
  // GL stops at the habit on line 3; the rewrite fixes that line and then fails on line 4.
  assert.match(original, /:3:/);
  assert.is(rewriteDialect(desc).kind, 'rewritten');
  const before = dialectStats.failed;
  assert.is(createError(desc).log, original);
  assert.is(dialectStats.failed, before + 1);
});

test('hostile sources are refused within the bounds and keep the original error', async () => {
  const habit = 'float a = 1;';
  const hostile: Array<[string, string, string]> = [
    ['deep nesting', `void main() { ${habit} float x = ${'('.repeat(200)}1.0${')'.repeat(200)}; gl_FragColor = vec4(x); }`, 'nested'],
    ['a huge expression', `void main() { ${habit} float x = ${Array(3000).fill('a').join(' + ')}; gl_FragColor = vec4(x); }`, 'too big'],
    ['an over-long file', `void main() { ${habit} ${'a = a + 1.0; '.repeat(3000)} gl_FragColor = vec4(a); }`, 'too long'],
    ['garbage', `void main() { ${habit} }} @@ {{ ${'\u0000\u00ff'.repeat(50)} void`, 'does not parse'],
  ];
  for (const [what, body, reason] of hostile) {
    const desc = fromText(`/*{ "INPUTS": [] }*/\n${body}`);
    const outcome = rewriteDialect(desc);
    assert.is(outcome.kind, 'none', what);
    assert.ok(outcome.kind === 'none' && outcome.reason.includes(reason), `${what}: ${JSON.stringify(outcome)}`);
    assert.is(createError(desc).log, originalError(desc), what);
  }
});

test.run();
