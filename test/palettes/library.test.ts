// Tests of the palette library: built-ins, operator folders (override, duplicates, invalid files), live rescans and ids.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaletteLibrary, PALETTE_ASSETS_DIR, type Palette } from '../../src/palettes/library.js';
import type { Logger } from '../../src/log.js';

interface Line {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps its lines, in the pino call shape (fields, message). */
function fakeLog(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => void lines.push({ level, fields, msg });
  return { log: { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as unknown as Logger, lines };
}

let root = '';
let counter = 0;
const libs: PaletteLibrary[] = [];

test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-palettes-'));
});

test.after(async () => {
  for (const lib of libs) lib.stop();
  await rm(root, { recursive: true, force: true });
});

async function freshDir(files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, `d${counter++}`);
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

async function started(dirs: string[]): Promise<{ lib: PaletteLibrary; lines: Line[] }> {
  const { log, lines } = fakeLog();
  const lib = new PaletteLibrary(dirs, log);
  libs.push(lib);
  await lib.start();
  return { lib, lines };
}

/** The next 'change' list, or a failure after timeoutMs (a ref'd timer: the watchers alone do not keep the process up). */
function nextChange(lib: PaletteLibrary, timeoutMs = 3000): Promise<readonly Palette[]> {
  return new Promise((resolve, reject) => {
    const on = (list: readonly Palette[]): void => {
      clearTimeout(timer);
      resolve(list);
    };
    const timer = setTimeout(() => {
      lib.off('change', on);
      reject(new Error(`no palette change within ${timeoutMs} ms`));
    }, timeoutMs);
    lib.once('change', on);
  });
}

const pal = (name: string, colors: string[]) => JSON.stringify({ name, colors });

test('built-ins: at least 12, 4-8 valid colors each, unique ids, sorted by file, indexes in order', async () => {
  const { lib, lines } = await started([]);
  const list = lib.list();
  assert.ok(list.length >= 12, `${list.length} built-ins`);
  assert.equal(
    lines.filter((l) => l.level === 'warn'),
    [],
    'no built-in is skipped',
  );
  const files = (await readdir(PALETTE_ASSETS_DIR)).filter((n) => n.endsWith('.json')).sort();
  assert.is(list.length, files.length);
  assert.is(new Set(list.map((p) => p.id)).size, list.length);
  list.forEach((p, i) => {
    assert.is(p.index, i);
    assert.is(p.id, files[i]!.replace(/\.json$/, ''));
    assert.match(p.id, /^[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(p.colors.length >= 4 && p.colors.length <= 8, `${p.id}: ${p.colors.length} colors`);
    for (const c of p.colors) assert.match(c, /^#[0-9A-F]{6}$/);
    assert.ok(p.builtin);
    assert.is(p.version, 1);
    assert.match(p.digest, /^[0-9a-f]{12}$/);
    assert.ok(p.name.length > 0);
    assert.is(lib.get(p.id), p);
  });
  assert.is(lib.version, 1);
});

test('find: exact id, then flexible name, then flexible id', async () => {
  const dir = await freshDir({
    'stage-wash.gpl': 'GIMP Palette\nName: Warm Stage\n255 128 0\n',
    'Mixed_Case.json': pal('Odd One', ['#123']),
  });
  const { lib } = await started([dir]);
  assert.is(lib.find('stage-wash')?.name, 'Warm Stage');
  assert.is(lib.find('  warm_STAGE ')?.id, 'stage-wash');
  assert.is(lib.find('Stage Wash')?.id, 'stage-wash');
  assert.is(lib.find('mixed-case')?.name, 'Odd One');
  assert.is(lib.find('odd-one')?.id, 'mixed-case');
  assert.is(lib.find('nothing like it'), undefined);
  assert.is(lib.find('   '), undefined);
  assert.is(lib.get('Stage Wash'), undefined, 'get is exact');
});

test('an operator file replaces a built-in of the same id in its place; later folders follow', async () => {
  const base = (await started([])).lib.list();
  const target = base[3]!;
  const dir = await freshDir({ [`${target.id}.gpl`]: 'GIMP Palette\nName: Mine\n1 2 3\n', 'zz-extra.json': pal('Extra', ['#010203']) });
  const { lib } = await started([dir]);
  const list = lib.list();
  assert.is(list.length, base.length + 1);
  const mine = list[3]!;
  assert.is(mine.id, target.id);
  assert.is(mine.name, 'Mine');
  assert.not.ok(mine.builtin);
  assert.is(mine.file, join(dir, `${target.id}.gpl`));
  assert.is(list[list.length - 1]!.id, 'zz-extra');
  assert.is(list[list.length - 1]!.index, list.length - 1);
});

test('duplicate ids across operator files: the first wins, the other is skipped naming both', async () => {
  const a = await freshDir({ 'Warm Wash.json': pal('A1', ['#111']), 'warm-wash.gpl': 'GIMP Palette\n1 1 1\n' });
  const b = await freshDir({ 'warm_wash.json': pal('B', ['#222']) });
  const { lib, lines } = await started([a, b]);
  const hits = lib.list().filter((p) => p.id === 'warm-wash');
  assert.is(hits.length, 1);
  assert.is(hits[0]!.name, 'A1');
  const warns = lines.filter((l) => l.level === 'warn');
  assert.is(warns.length, 2);
  const text = JSON.stringify(warns);
  for (const f of [join(a, 'Warm Wash.json'), join(a, 'warm-wash.gpl'), join(b, 'warm_wash.json')])
    assert.ok(text.includes(JSON.stringify(f)), f);
});

test('an invalid file is skipped with a warn line naming the file, line and reason; the rest load', async () => {
  const dir = await freshDir({
    'good.json': pal('Good', ['#FFF']),
    'broken.gpl': 'GIMP Palette\nName: Broken\n300 0 0 too bright\n',
    'bad.json': '{\n"name": "Bad",\n"colors": ["#FF000080"]\n}',
    'big.json': JSON.stringify({ name: 'Big', colors: ['#FFF'], pad: 'x'.repeat(70 * 1024) }),
    'notes.txt': 'not a palette',
  });
  const { lib, lines } = await started([dir]);
  const ids = lib.list().map((p) => p.id);
  assert.ok(ids.includes('good'));
  for (const id of ['broken', 'bad', 'big', 'notes']) assert.not.ok(ids.includes(id), id);
  const warn = (file: string) => lines.find((l) => l.level === 'warn' && l.fields.file === join(dir, file));
  assert.equal(warn('broken.gpl')?.fields, { file: join(dir, 'broken.gpl'), line: 3, reason: 'color value 300 is outside 0-255' });
  assert.is(warn('bad.json')?.fields.line, 3);
  assert.match(String(warn('bad.json')?.fields.reason), /alpha/);
  assert.match(String(warn('big.json')?.fields.reason), /65536/);
  assert.is(lines.filter((l) => l.level === 'warn').length, 3);
  // A rescan that finds the same problems does not repeat them.
  await lib.reload();
  assert.is(lines.filter((l) => l.level === 'warn').length, 3);
});

test('an edit on disk bumps version and digest and emits change; deleting removes; re-adding continues', async () => {
  const dir = await freshDir({ 'live.json': pal('Live', ['#FF0000', '#00FF00']), 'other.json': pal('Other', ['#000']) });
  const { lib } = await started([dir]);
  const before = lib.get('live')!;
  const libVersion = lib.version;
  assert.is(before.version, 1);

  let changed = nextChange(lib);
  await writeFile(join(dir, 'live.json'), pal('Live', ['#FF0000', '#0000FF']));
  let list = await changed;
  const after = list.find((p) => p.id === 'live')!;
  assert.is(after.version, 2);
  assert.is.not(after.digest, before.digest);
  assert.equal(after.colors, ['#FF0000', '#0000FF']);
  assert.is(lib.get('live'), after);
  assert.is(lib.get('other')!.version, 1, 'an untouched file keeps its version');
  assert.ok(lib.version > libVersion);

  changed = nextChange(lib);
  await rm(join(dir, 'live.json'));
  list = await changed;
  assert.not.ok(list.some((p) => p.id === 'live'));
  assert.is(lib.get('live'), undefined);
  list.forEach((p, i) => assert.is(p.index, i));

  changed = nextChange(lib);
  await writeFile(join(dir, 'live.json'), pal('Live', ['#FFFFFF']));
  list = await changed;
  assert.is(list.find((p) => p.id === 'live')!.version, 3, 'a returning id with new content continues its count');
});

test('a configured folder that does not exist is noted once and picked up when it appears', async () => {
  const dir = join(root, `later${counter++}`);
  const { lib, lines } = await started([dir]);
  const count = lib.list().length;
  const infos = lines.filter((l) => l.level === 'info' && l.fields.dir === dir);
  assert.is(infos.length, 1);
  assert.is(lines.filter((l) => l.level === 'warn').length, 0);
  await lib.reload();
  assert.is(lines.filter((l) => l.level === 'info' && l.fields.dir === dir).length, 1, 'noted once');
  const changed = nextChange(lib, 8000);
  await mkdir(dir);
  await writeFile(join(dir, 'late.json'), pal('Late', ['#ABC']));
  const list = await changed;
  assert.is(list.length, count + 1);
  assert.equal(lib.get('late')?.colors, ['#AABBCC']);
});

test('ids and digests are the same in two separate library instances', async () => {
  const dir = await freshDir({ 'Club Night.json': pal('Club', ['#F0F']), 'wash.gpl': 'GIMP Palette\n0 0 0\n' });
  const one = (await started([dir])).lib;
  one.stop();
  const two = (await started([dir])).lib;
  const key = (l: readonly Palette[]) => l.map((p) => `${p.index}:${p.id}:${p.digest}:${p.version}`);
  assert.equal(key(one.list()), key(two.list()));
  assert.ok(two.get('club-night'));
});

test.run();
