// Tests of the ISF parser (header rules, normalization, rejection reasons) and the pass size expression evaluator.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clampSize, evalSizeExpr, IsfExprError } from '../../src/shared/isf-expr.js';
import { isfTypeFromFileName, IsfParseError, parseIsf } from '../../src/catalog/isf-parse.js';

const MAIN = '\nvoid main() { gl_FragColor = vec4(1.0); }\n';
const parse = (header: unknown, fileName = 'thing.fs', body = MAIN) =>
  parseIsf(`/*${typeof header === 'string' ? header : JSON.stringify(header)}*/${body}`, { file: `builtin:${fileName}`, fileName });

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.instance(err, IsfParseError);
    return (err as IsfParseError).reason;
  }
  throw new Error('expected an IsfParseError');
}

test('type comes from the file name', () => {
  assert.is(isfTypeFromFileName('hue_shift.fs'), 'hue_shift');
  assert.is(isfTypeFromFileName('Hue Shift.fs'), 'hue_shift');
  assert.is(isfTypeFromFileName('--RGB--Split!!.frag'), 'rgb_split');
  assert.is(isfTypeFromFileName('/some/dir/Kaleido-6.fs'), 'kaleido_6');
  assert.is(isfTypeFromFileName('noext'), 'noext');
  assert.throws(
    () => isfTypeFromFileName('___.fs'),
    (e: unknown) => e instanceof IsfParseError,
  );
});

test('name: header NAME, else the type in title case', () => {
  assert.is(parse({}, 'hue_shift.fs').name, 'Hue Shift');
  assert.is(parse({ NAME: '  Colour Wheel ' }, 'hue_shift.fs').name, 'Colour Wheel');
  const d = parse({ DESCRIPTION: 'd', CATEGORIES: ['Color', 3, 'Fun'], CREDIT: 'me' }, 'x.fs');
  assert.is(d.description, 'd');
  assert.equal(d.categories, ['Color', 'Fun']);
  assert.is(d.credit, 'me');
  assert.is(d.file, 'builtin:x.fs');
});

test('kind: effect with an inputImage image input, generator otherwise', () => {
  assert.is(parse({ INPUTS: [{ NAME: 'inputImage', TYPE: 'image' }] }).kind, 'effect');
  assert.is(parse({ INPUTS: [{ NAME: 'other', TYPE: 'image' }] }).kind, 'generator');
  assert.is(parse({ INPUTS: [{ NAME: 'inputImage', TYPE: 'float' }] }).kind, 'generator');
  assert.is(parse({}).kind, 'generator');
});

test('defaults are normalized and filled', () => {
  const d = parse({
    INPUTS: [
      { NAME: 'f', TYPE: 'float', MIN: 0.5, MAX: 2 },
      { NAME: 'f2', TYPE: 'float', DEFAULT: '1.5' },
      { NAME: 'f3', TYPE: 'float', DEFAULT: 9, MAX: 4 },
      { NAME: 'l', TYPE: 'long', VALUES: [2, 4, 8], LABELS: ['two', 'four', 'eight'] },
      { NAME: 'l2', TYPE: 'long', DEFAULT: 2.6 },
      { NAME: 'b', TYPE: 'bool', DEFAULT: 1 },
      { NAME: 'b2', TYPE: 'bool' },
      { NAME: 'e', TYPE: 'event' },
      { NAME: 'c', TYPE: 'color', DEFAULT: [1, 0.5, 0] },
      { NAME: 'c2', TYPE: 'color' },
      { NAME: 'p', TYPE: 'point2D', DEFAULT: [3, 4], MIN: [0, 0], MAX: [1, 10] },
      { NAME: 'p2', TYPE: 'point2D' },
      { NAME: 'img', TYPE: 'image', LABEL: 'Image' },
    ],
  });
  const by = Object.fromEntries(d.inputs.map((i) => [i.name, i]));
  assert.is(by.f!.default, 0.5);
  assert.is(by.f!.min, 0.5);
  assert.is(by.f2!.default, 1.5);
  assert.is(by.f3!.default, 4);
  assert.is(by.l!.default, 2);
  assert.equal(by.l!.values, [2, 4, 8]);
  assert.equal(by.l!.labels, ['two', 'four', 'eight']);
  assert.is(by.l2!.default, 3);
  assert.is(by.b!.default, true);
  assert.is(by.b2!.default, false);
  assert.is(by.e!.default, false);
  assert.equal(by.c!.default, [1, 0.5, 0, 1]);
  assert.equal(by.c2!.default, [0, 0, 0, 1]);
  assert.equal(by.p!.default, [1, 4]);
  assert.equal(by.p2!.default, [0, 0]);
  assert.is(by.img!.default, undefined);
  assert.is(by.img!.label, 'Image');
});

test('passes: default single pass; TARGET, PERSISTENT, FLOAT, WIDTH/HEIGHT normalized', () => {
  assert.equal(parse({}).passes, [{ persistent: false, float: false }]);
  assert.equal(parse({ PASSES: [] }).passes, [{ persistent: false, float: false }]);
  const d = parse({
    INPUTS: [{ NAME: 'blur', TYPE: 'float', DEFAULT: 2 }],
    PASSES: [
      { TARGET: 'a', PERSISTENT: 'true', FLOAT: 1, WIDTH: '$WIDTH/2', HEIGHT: 100 },
      { TARGET: 'b', PERSISTENT: true, WIDTH: 'floor($WIDTH / $blur)' },
      {},
    ],
  });
  assert.equal(d.passes, [
    { target: 'a', persistent: true, float: true, width: '$WIDTH/2', height: '100' },
    { target: 'b', persistent: true, float: false, width: 'floor($WIDTH / $blur)' },
    { persistent: false, float: false },
  ]);
});

test('fragment keeps the file line numbers (header replaced by newlines)', () => {
  const text = '/*{\n "NAME": "x"\n}*/\nvoid main() {\n  gl_FragColor = vec4(1.0);\n}\n';
  const d = parseIsf(text, { file: 'f', fileName: 'x.fs', vertex: 'void main() { isf_vertShaderInit(); }' });
  assert.is(d.fragment.split('\n')[4], '  gl_FragColor = vec4(1.0);');
  assert.is(text.split('\n')[4], '  gl_FragColor = vec4(1.0);');
  assert.is(d.vertex, 'void main() { isf_vertShaderInit(); }');
});

test('audio and audioFFT inputs are listed (textures, no default), as image inputs are', () => {
  const d = parse({
    INPUTS: [
      { NAME: 'inputImage', TYPE: 'image' },
      { NAME: 'wave', TYPE: 'audio' },
      { NAME: 'spectrum', TYPE: 'audioFFT', LABEL: 'Spectrum' },
    ],
  });
  assert.equal(d.inputs.slice(1), [
    { name: 'wave', type: 'audio' },
    { name: 'spectrum', type: 'audioFFT', label: 'Spectrum' },
  ]);
  assert.is(d.kind, 'effect');
});

test('rejections carry a clear reason', () => {
  assert.match(
    reason(() => parseIsf('void main() {}', { file: 'f', fileName: 'a.fs' })),
    /no ISF header/,
  );
  assert.match(
    reason(() => parseIsf('/* just a comment */ void main() {}', { file: 'f', fileName: 'a.fs' })),
    /no ISF header/,
  );
  assert.match(
    reason(() => parseIsf('/*{ "NAME": "x" ', { file: 'f', fileName: 'a.fs' })),
    /never closed/,
  );
  assert.match(
    reason(() => parse('{\n "NAME": "x",\n }')),
    /bad JSON in header at line 3 column \d+/,
  );
  assert.match(
    reason(() => parse('[1]')),
    /no ISF header|not an object/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'a', TYPE: 'midi' }] })),
    /input "a": unknown TYPE "midi"/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ TYPE: 'float' }] })),
    /INPUTS\[0\] has no NAME/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'a' }] })),
    /input "a" has no TYPE/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'a b', TYPE: 'float' }] })),
    /not a GLSL identifier/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'TIME', TYPE: 'float' }] })),
    /reserved/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'half', TYPE: 'float' }] })),
    /input "half": NAME is a reserved word/,
  );
  assert.match(
    reason(() => parse({ PASSES: [{ TARGET: 'gl_buf' }] })),
    /TARGET "gl_buf" is a reserved word/,
  );
  assert.match(
    reason(() => parse({ INPUTS: 'x' })),
    /INPUTS must be an array/,
  );
  assert.match(
    reason(() =>
      parse({
        INPUTS: [
          { NAME: 'a', TYPE: 'float' },
          { NAME: 'a', TYPE: 'bool' },
        ],
      }),
    ),
    /duplicate input name "a"/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'a', TYPE: 'float', DEFAULT: 'big' }] })),
    /DEFAULT must be a number/,
  );
  // MIN above MAX is put in order with a warning, as desktop hosts accept it (test/isf/headers.test.ts).
  const swapped = parse({ INPUTS: [{ NAME: 'a', TYPE: 'float', MIN: 2, MAX: 1 }] });
  assert.equal([swapped.inputs[0]!.min, swapped.inputs[0]!.max], [1, 2]);
  assert.match(swapped.warnings![0]!, /MIN 2 is greater than MAX 1; swapped/);
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'c', TYPE: 'color', DEFAULT: 'red' }] })),
    /array of 3 or 4 numbers/,
  );
  assert.match(
    reason(() => parse({ PASSES: {} })),
    /PASSES must be an array/,
  );
  assert.match(
    reason(() => parse({ PASSES: [3] })),
    /PASSES\[0\] is not an object/,
  );
  assert.match(
    reason(() => parse({ PASSES: [{ TARGET: 'my buf' }] })),
    /TARGET must be a GLSL identifier/,
  );
  assert.match(
    reason(() => parse({ PASSES: [{ TARGET: 'a', PERSISTENT: 'yes' }] })),
    /PERSISTENT must be a boolean/,
  );
  assert.match(
    reason(() => parse({ PASSES: [{ TARGET: 'a', WIDTH: '$WIDTH/' }] })),
    /PASSES\[0\] WIDTH: .*at end/,
  );
  assert.match(
    reason(() => parse({ PASSES: [{ TARGET: 'a', WIDTH: '$nope * 2' }] })),
    /unknown variable "nope"/,
  );
  assert.match(
    reason(() => parse({ INPUTS: [{ NAME: 'inputImage', TYPE: 'image' }], PASSES: [{ TARGET: 'inputImage' }] })),
    /name of an input/,
  );
  assert.match(
    reason(() => parse({}, 'x.fs', '\nfloat f() { return 1.0; }\n')),
    /no main\(\)/,
  );
  assert.match(
    reason(() => parse({ NAME: 'big' }, 'x.fs', MAIN + '//'.padEnd(300 * 1024, 'x'))),
    /larger than 256 KiB/,
  );
});

test('size expressions: arithmetic, variables, functions', () => {
  const vars = { WIDTH: 640, HEIGHT: 360, blur: 4 };
  assert.is(evalSizeExpr('$WIDTH/2', vars), 320);
  assert.is(evalSizeExpr('floor($WIDTH / 3.0)', vars), 213);
  assert.is(evalSizeExpr('-(-$HEIGHT) + 2 * 3', vars), 366);
  assert.is(evalSizeExpr('$WIDTH / $blur', vars), 160);
  assert.is(evalSizeExpr('WIDTH / blur', vars), 160);
  assert.is(evalSizeExpr('max(1, min($WIDTH, 100, 50))', vars), 50);
  assert.is(evalSizeExpr('pow(2, 3) + sqrt(16) + abs(-1) + ceil(0.2) + round(1.5)', vars), 16);
  assert.is(evalSizeExpr('1.5e2', vars), 150);
  assert.is(evalSizeExpr('2 + 3 * 4 - 8 / 2', vars), 10);
  for (const bad of ['', '2 +', '(1', '1)', 'foo(1)', 'floor(1, 2)', '$WIDTH $HEIGHT', '1 ; 2', 'alert("x")', 'a.b']) {
    assert.throws(
      () => evalSizeExpr(bad, vars),
      (e: unknown) => e instanceof IsfExprError,
      bad,
    );
  }
  assert.throws(() => evalSizeExpr('$missing', vars), /unknown variable/);
  assert.is(clampSize(0.2, 5), 1);
  assert.is(clampSize(1e9, 5), 8192);
  assert.is(clampSize(Number.NaN, 5), 5);
  assert.is(clampSize(99.6, 5), 100);
});

test.run();
