// Fault injection on operator files over real HTTP: broken palette and effect files at start, and a config file
// replaced with invalid JSON while running.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, tempDir, req, type TestServer } from '../helpers/server.js';
import { Client, FaultReport, poll } from './faults-common.js';

let s: TestServer;
let work: string;
let effectsDir: string;
let palettesDir: string;
const c = new Client(() => s.base);
const report = new FaultReport();

const GOOD_EFFECT = `/*{ "NAME": "Fault Tint", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * vec4(1.0, 0.5, 0.5, 1.0); }`;
// The header is not JSON (trailing comma): the file cannot be parsed at all.
const BAD_HEADER = `/*{ "NAME": "Bad Header", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" }, ] }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage); }`;
// Parses, but line 4 of the file uses an undeclared name: it is listed and fails when added.
const NO_COMPILE = `/*{ "NAME": "No Compile",
  "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() {
  gl_FragColor = IMG_THIS_PIXEL(inputImage) * missingThing;
}`;

function config(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    effects: { dirs: [effectsDir] },
    palettes: { dirs: [palettesDir] },
    live: { test: [], streams: [], v4l2: { enabled: false } },
    ...extra,
  };
}

/** Replaces the config file the way an editor saves it: a temp file renamed over it. */
async function replaceConfig(text: string): Promise<void> {
  const tmp = `${s.configFile!}.edit`;
  await writeFile(tmp, text);
  await rename(tmp, s.configFile!);
}

const count = (text: string): number => s.logs().split(text).length - 1;

test.before(async () => {
  work = await tempDir('vjd-faults-files-');
  effectsDir = join(work, 'effects');
  palettesDir = join(work, 'palettes');
  await mkdir(effectsDir);
  await mkdir(palettesDir);
  await writeFile(join(effectsDir, 'fault_tint.fs'), GOOD_EFFECT);
  await writeFile(join(effectsDir, 'bad_header.fs'), BAD_HEADER);
  await writeFile(join(effectsDir, 'no_compile.fs'), NO_COMPILE);
  await writeFile(join(palettesDir, 'good-green.json'), JSON.stringify({ name: 'Good Green', colors: ['#00ff00', '#008000'] }));
  await writeFile(join(palettesDir, 'good-wash.gpl'), 'GIMP Palette\nName: Good Wash\n255 128 0 amber\n0 0 255 blue\n');
  await writeFile(join(palettesDir, 'bad-json.json'), '{ "name": "Bad Json", "colors": ["#ff0000", ');
  await writeFile(join(palettesDir, 'bad-gimp.gpl'), 'GIMP Palette\nName: Bad Gimp\n12 nonsense 7\n');
  s = await startServer({ dataDir: join(work, 'data'), config: config() });
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
  await report.save();
});

test('broken palette and effect files: the server starts, names each broken file, serves the rest; adding the broken effect is a 500', () =>
  report.run('broken-catalog-files', async () => {
    const logs = s.logs();
    for (const f of ['bad-json.json', 'bad-gimp.gpl', 'bad_header.fs']) {
      const line = logs.split('\n').find((l) => l.includes(f) && /"level":(40|50)|"level":"(warn|error)"/.test(l));
      assert.ok(line, `a warn/error log line names ${f}`);
    }
    const noCompileLine = logs.split('\n').find((l) => l.includes('missingThing'));
    assert.ok(noCompileLine, 'the compile failure is logged at start with its compile error');
    // The type alone does not tell an operator which folder's file is broken (an operator file may replace a built-in).
    assert.match(noCompileLine!, /no_compile\.fs/, `the compile failure line names the file: ${noCompileLine}`);

    const palettes = await c.json('/palettes');
    const ids = palettes.items.map((p: any) => p.id);
    assert.ok(ids.includes('good-green') && ids.includes('good-wash'), `good palette files served: ${ids}`);
    assert.not.ok(ids.includes('bad-json') || ids.includes('bad-gimp'), 'broken palette files are not served');
    assert.ok(palettes.count > 2, 'built-in palettes still served');
    assert.equal(palettes.items.find((p: any) => p.id === 'good-wash').colors, ['#FF8000', '#0000FF']);

    const available = (await c.json('/effects/available')).items.map((e: any) => e.type);
    assert.ok(available.includes('fault_tint') && available.includes('invert'), 'good and built-in effects served');
    assert.ok(available.includes('no_compile'), 'a file that parses but does not compile stays listed');
    assert.not.ok(available.includes('bad_header'), 'a file whose header does not parse is skipped');

    assert.is((await c.post('/effects/add', { type: 'fault_tint' })).status, 200);
    const failed = await c.post('/effects/add', { type: 'No Compile' });
    assert.is(failed.status, 500, failed.text);
    const body = failed.json();
    assert.is(body.code, 'EFFECT_LOAD_FAILED');
    assert.match(
      body.message,
      /ERROR: 0:4: 'missingThing'/,
      `the message carries the compile error at line 4 of the file: ${body.message}`,
    );
    assert.is(s.proc.exitCode, null, 'no crash');
    assert.is((await c.get('/status')).status, 200);
    const chain = await c.json('/effects');
    assert.equal(
      chain.items.map((i: any) => i.type),
      ['fault_tint'],
      'nothing added by the failure',
    );
    assert.is((await c.post('/effects/add', { type: 'invert' })).status, 200, 'adding still works after the failure');
    await c.sample();
    const failures = c.serverErrors.filter((e) => !e.startsWith('POST /effects/add -> 500'));
    assert.equal(failures, [], 'the only 5xx is the documented EFFECT_LOAD_FAILED');
    c.serverErrors.length = 0;
    return 'invalid JSON palette, invalid GPL, ISF with a broken header and ISF that fails to compile: server started, each file named in a log line, the rest served; adding the broken effect answered 500 EFFECT_LOAD_FAILED with the compile line';
  }));

test('config file replaced with invalid JSON: the last good config keeps serving, the reason is logged; a later valid edit applies', () =>
  report.run('invalid-config-edit', async () => {
    c.serverErrors.length = 0; // the previous test's failure is its own
    const file = s.configFile!;
    const before = count('keeping the last good config');
    await replaceConfig('{ "server": { "apiKey": "half-written" ');
    await poll('the rejection to be logged', () => (count('keeping the last good config') > before ? true : undefined), 15000);
    const line = s
      .logs()
      .split('\n')
      .filter((l) => l.includes('keeping the last good config'))
      .pop()!;
    assert.ok(line.includes(file), `the log line names the config file: ${line}`);
    assert.match(line, /JSON|parse|Unexpected|Expected/i, 'and says why');
    for (let i = 0; i < 5; i++) {
      assert.is((await c.get('/effects')).status, 200, 'still serving without a key: the bad file changed nothing');
      assert.is((await c.get('/status')).status, 200);
    }
    // An empty file (an editor crashed between truncate and write) is just as invalid.
    await writeFile(file, '');
    await poll('the empty file to be rejected', () => (count('keeping the last good config') > before + 1 ? true : undefined), 15000);
    assert.is((await c.get('/effects')).status, 200);

    await replaceConfig(JSON.stringify({ ...config(), server: { host: '127.0.0.1', port: s.port, apiKey: 'fault-key-1' } }, null, 2));
    await poll('the new api key to apply', async () => ((await c.get('/effects')).status === 401 ? true : undefined), 15000);
    const withKey = await req('GET', `${s.base}/api/v1/effects`, { headers: { 'X-API-Key': 'fault-key-1' } });
    assert.is(withKey.status, 200, 'the new key is accepted');
    assert.is(s.proc.exitCode, null);
    // Back to no key, so the server ends the way it started.
    await replaceConfig(JSON.stringify({ ...config(), server: { host: '127.0.0.1', port: s.port } }, null, 2));
    await poll('the key to be removed', async () => ((await c.get('/effects')).status === 200 ? true : undefined), 15000);
    assert.equal(c.serverErrors, []);
    return 'config replaced with invalid JSON, then emptied: served on with the last good config, the file and the parse error logged each time; a later valid edit (apiKey) applied without a restart';
  }));

test.run();
