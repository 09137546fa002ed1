// Tests of the palette file parsers: JSON and GIMP .gpl, color normalization, and the file/line/reason of rejections.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PaletteParseError, paletteIdFromFile, paletteNameFromFile, parseGpl, parsePaletteJson } from '../../src/palettes/parse.js';

function rejection(fn: () => unknown): PaletteParseError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, PaletteParseError);
    return err as PaletteParseError;
  }
  throw new Error('expected a PaletteParseError');
}

const json = (text: string, file = 'test.json') => parsePaletteJson(text, file);
const jsonError = (text: string, file = 'test.json') => rejection(() => json(text, file));

test('JSON: name and colors; upper-case, #RGB expanded, extra keys ignored', () => {
  const p = json(JSON.stringify({ name: '  Neon  ', colors: ['#ff00a0', '#0Ff', '#ABCDEF', '#abc'], author: 'me', tags: [1] }));
  assert.equal(p, { name: 'Neon', colors: ['#FF00A0', '#00FFFF', '#ABCDEF', '#AABBCC'] });
  assert.equal(json('\ufeff{"name":"B","colors":["#000"]}'), { name: 'B', colors: ['#000000'] }, 'a byte-order mark is allowed');
});

test('JSON: a missing name comes from the file name in title case', () => {
  assert.is(json('{"colors":["#123456"]}', '/x/y/deep-ocean_2.json').name, 'Deep Ocean 2');
  assert.is(json('{"colors":["#123456"]}', 'warm wash.json').name, 'Warm Wash');
  assert.is(paletteNameFromFile('---.json'), 'Palette');
});

test('JSON: colors with alpha and other forms are refused, on the line where they stand', () => {
  const text = '{\n  "name": "X",\n  "colors": [\n    "#FF0000",\n    "#FF000080"\n  ]\n}';
  const e = jsonError(text, 'a.json');
  assert.is(e.file, 'a.json');
  assert.is(e.line, 5);
  assert.match(e.reason, /alpha/);
  assert.match(e.message, /^a\.json:5: /);
  assert.is(jsonError('{"name":"X",\n"colors":["#FFF",\n"#F008"]}').line, 3, '#RGBA is alpha too');
  for (const bad of ['red', '#GG0000', 'FF0000', '#FF00', '#FF00000', ' #FF0000', 'rgb(1,2,3)', '']) {
    const err = jsonError(`{"name":"X",\n"colors":[\n${JSON.stringify(bad)}]}`);
    assert.is(err.line, 3, bad);
    assert.match(err.reason, /#RRGGBB/, bad);
  }
  const num = jsonError('{"name":"X",\n"colors":["#FFF",\n\n 255]}');
  assert.is(num.line, 4);
  assert.match(num.reason, /not a string/);
});

test('JSON: a bad color is looked for after "colors", not in the name', () => {
  const e = jsonError('{\n"name": "#12",\n"note": "x",\n"colors": [\n"#12"]}');
  assert.is(e.line, 5);
});

test('JSON: name and colors rules', () => {
  const text = (name: unknown, colors: unknown) => `{\n"name": ${JSON.stringify(name)},\n"colors": ${JSON.stringify(colors)}\n}`;
  for (const name of ['', '   ', 'x'.repeat(129), 5, null]) {
    const e = jsonError(text(name, ['#FFF']));
    assert.is(e.line, 2, String(name));
    assert.match(e.reason, /"name"/);
  }
  assert.is(json(text('x'.repeat(128), ['#FFF'])).name.length, 128);
  for (const colors of [[], 'x', null, { a: 1 }, Array(257).fill('#FFF')]) {
    const e = jsonError(text('N', colors));
    assert.is(e.line, 3, JSON.stringify(colors).slice(0, 20));
    assert.match(e.reason, /"colors"/);
  }
  assert.is(json(text('N', Array(256).fill('#fff'))).colors.length, 256);
  assert.is(jsonError('{"name":"N"}').line, 1, 'colors missing');
  assert.is(jsonError('[1,2]').line, 1);
  assert.is(jsonError('"text"').line, 1);
});

test('JSON: syntax errors carry the line of the reported position', () => {
  const trailing = jsonError('{\n  "name": "X",\n  "colors": ["#FFF"],\n}');
  assert.is(trailing.line, 4);
  assert.match(trailing.reason, /^invalid JSON: /);
  assert.is(jsonError('{\n"name": "X",\n"colors": [\'#FFF\']\n}').line, 3, 'single quotes (no position in the message)');
  assert.is(jsonError('{\n"name": "X",\n"colors": ["#FFF"]\n}\nextra').line, 5, 'trailing text');
  assert.is(jsonError('{\n"name": "X",\n"colors": ["#FFF"\n').line, 4, 'cut short');
  assert.is(jsonError('').line, 1);
  assert.is(jsonError('\n\n  nope').line, 3);
  const quoted = jsonError('{"name": x}');
  assert.not.match(quoted.reason, /is not valid JSON/, 'the file text is not repeated in the reason');
});

const GPL = 'GIMP Palette\nName: Stage Wash\nColumns: 2\n# a comment\n255 128   0\tamber\n 0 0 255 blue\n\n10\t20\t30\n';

test('GPL: header, name, comments, columns and color lines', () => {
  assert.equal(parseGpl(GPL, 'stage.gpl'), { name: 'Stage Wash', colors: ['#FF8000', '#0000FF', '#0A141E'] });
  assert.equal(
    parseGpl('\n\nGIMP Palette\r\n0 0 0\r\n', 'x/dark_room.gpl'),
    { name: 'Dark Room', colors: ['#000000'] },
    'no Name: falls back to the file name',
  );
  assert.is(parseGpl('GIMP Palette\nName:\n1 2 3\n', 'empty-name.gpl').name, 'Empty Name');
  assert.is(parseGpl('GIMP Palette\nname: lower\n1 2 3\n', 'f.gpl').name, 'lower');
});

test('GPL: rejections with their lines', () => {
  const gplError = (text: string) => rejection(() => parseGpl(text, 'p.gpl'));
  let e = gplError('JASC-PAL\n0 0 0\n');
  assert.is(e.line, 1);
  assert.match(e.reason, /GIMP Palette/);
  assert.is(gplError('\n\nGimp palette\n').line, 3);
  assert.is(gplError('').line, 1);
  e = gplError('GIMP Palette\nName: Broken\n300 0 0 too bright\n');
  assert.is(e.line, 3);
  assert.match(e.reason, /300/);
  for (const bad of ['1 2', '1 2 x', '-1 2 3', '1.5 2 3', 'red green blue', '0x10 0 0']) {
    const err = gplError(`GIMP Palette\n# c\n1 1 1\n${bad}\n`);
    assert.is(err.line, 4, bad);
    assert.match(err.reason, /R G B/, bad);
  }
  e = gplError('GIMP Palette\nName: Nothing\n# only comments\n');
  assert.match(e.reason, /at least 1 color/);
  const many = ['GIMP Palette', ...Array(257).fill('1 2 3')].join('\n');
  e = gplError(many);
  assert.is(e.line, 258);
  assert.is(parseGpl(['GIMP Palette', ...Array(256).fill('1 2 3')].join('\n'), 'p.gpl').colors.length, 256);
  assert.is(gplError(`GIMP Palette\nName: ${'n'.repeat(129)}\n1 2 3\n`).line, 2);
});

test('ids come from file names', () => {
  assert.is(paletteIdFromFile('Stage Wash.gpl'), 'stage-wash');
  assert.is(paletteIdFromFile('/a/b/Neon_Club--2.JSON'), 'neon-club-2');
  assert.is(paletteIdFromFile('__.json'), 'palette');
  assert.is(paletteIdFromFile('noext'), 'noext');
});

test.run();
