// Named pipes in the folders vjd reads, over real HTTP: opening one the ordinary way parks a file thread until a
// writer comes, so a few of them stall every file operation (state saves answer 503) and one present at start keeps
// the port closed. Pipes placed before the start and while running are each skipped with a warning naming them,
// and state-saving POSTs keep answering. No timing figures: each wait has a generous deadline where the old code hung.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, tempDir, req, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
let work: string;
let dataDir: string;
const dirs: Record<string, string> = {};
const api = (p: string): string => `${s!.base}/api/v1${p}`;
const post = (p: string, body: unknown) => req('POST', api(p), { body, timeoutMs: 30_000 });

const GOOD_EFFECT = `/*{ "NAME": "Pipe Neighbour", "INPUTS": [ { "NAME": "inputImage", "TYPE": "image" } ] }*/
void main() { gl_FragColor = IMG_THIS_PIXEL(inputImage) * vec4(1.0, 0.5, 0.5, 1.0); }`;

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

/** A log line at warn or error level that names `path` and carries `message`. */
function logged(path: string, message: string): boolean {
  const name = JSON.stringify(path).slice(1, -1);
  return s!
    .logs()
    .split('\n')
    .some((l) => l.includes(name) && l.includes(message) && /"level":(40|50)|"level":"(warn|error)"/.test(l));
}

async function waitLogged(path: string, message: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!logged(path, message)) {
    if (Date.now() > deadline) assert.unreachable(`no warning "${message}" naming ${path}:\n${s!.logs().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** More saves than libuv has file threads: each answers 200 once state.json is on disk. */
async function statesSave(): Promise<void> {
  for (let i = 0; i < 8; i++) {
    const r = await post('/global/dimmer', { value: i % 2 ? 0.4 : 0.6 });
    assert.is(r.status, 200, `dimmer save ${i}: ${r.text}`);
  }
}

// Pipes named like what each reader looks for, placed before the start; the message is the warning naming each.
const atStart = (): Array<[string, string]> => [
  [join(dirs.effects!, 'pipe_fx.fs'), 'ISF file skipped'],
  [join(dirs.effects!, 'pipe_neighbour.vs'), 'ISF vertex file skipped'],
  [join(dirs.sources!, 'pipe_gen.fs'), 'ISF file skipped'],
  [join(dirs.presets!, 'pipe_preset.json'), 'preset file skipped'],
  [join(dirs.transitions!, 'pipe_wipe.fs'), 'ISF file skipped'],
  [join(dirs.blends!, 'pipe_blend.fs'), 'ISF file skipped'],
  [join(dirs.palettes!, 'pipe-colours.json'), 'palette file skipped'],
  [join(dirs.media!, 'pipe.mp4'), 'media entry skipped'],
  [join(dataDir, 'state.json'), 'state file unreadable'],
  [join(dataDir, 'outputs.json'), 'saved outputs not read'],
  [join(dataDir, 'cache', 'probe-cache.json'), 'probe cache unreadable'],
];

test.before(async () => {
  work = await tempDir('vjd-fifo-');
  dataDir = join(work, 'data');
  for (const d of ['effects', 'sources', 'presets', 'transitions', 'blends', 'palettes', 'media']) {
    dirs[d] = join(work, d);
    await mkdir(dirs[d]!, { recursive: true });
  }
  await mkdir(join(dataDir, 'cache'), { recursive: true });
  await mkdir(join(dataDir, 'scenes'), { recursive: true });
  await writeFile(join(dirs.effects!, 'pipe_neighbour.fs'), GOOD_EFFECT);
  await writeFile(join(dirs.palettes!, 'good-green.json'), JSON.stringify({ name: 'Good Green', colors: ['#00ff00', '#008000'] }));
  for (const [path] of atStart()) mkfifo(path);
  // A pipe named like a scene image no scene owns: the start-up sweep removes it.
  mkfifo(join(dataDir, 'scenes', 'stray.png'));
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('pipes present at start: the server starts, names each one skipped, serves the rest and saves state', async () => {
  s = await startServer({
    dataDir,
    config: {
      effects: { dirs: [dirs.effects] },
      sources: { dirs: [dirs.sources] },
      presets: { dirs: [dirs.presets] },
      transitions: { dirs: [dirs.transitions] },
      blends: { dirs: [dirs.blends] },
      palettes: { dirs: [dirs.palettes] },
      media: { roots: [dirs.media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  for (const [path, message] of atStart()) await waitLogged(path, message);
  await s.waitForLog('scene image without a scene removed', 60_000);
  assert.not.ok(
    await lstat(join(dataDir, 'scenes', 'stray.png')).then(
      () => true,
      () => false,
    ),
    'the stray pipe in the scenes folder is gone',
  );

  const available = (await req('GET', api('/effects/available'))).json().items.map((e: any) => e.type);
  assert.ok(available.includes('pipe_neighbour'), `the effect beside the pipes is served: ${available}`);
  const palettes = (await req('GET', api('/palettes'))).json().items.map((p: any) => p.id);
  assert.ok(palettes.includes('good-green'), `the palette beside the pipe is served: ${palettes}`);
  await statesSave();
});

test('pipes appearing while running are skipped at the reload they cause; state saves keep answering', async () => {
  assert.ok(s, 'the server of the first test runs');
  const late: Array<[string, string]> = [
    [join(dirs.effects!, 'late_fx.fs'), 'ISF file skipped'],
    [join(dirs.sources!, 'late_gen.fs'), 'ISF file skipped'],
    [join(dirs.presets!, 'late_preset.json'), 'preset file skipped'],
    [join(dirs.transitions!, 'late_wipe.fs'), 'ISF file skipped'],
    [join(dirs.blends!, 'late_blend.fs'), 'ISF file skipped'],
    [join(dirs.palettes!, 'late-colours.gpl'), 'palette file skipped'],
    [join(dirs.media!, 'late.mov'), 'media entry skipped'],
  ];
  // One at a time, each seen skipped before the next: every reload would have parked a file thread of its own.
  for (const [path, message] of late) {
    mkfifo(path);
    await waitLogged(path, message);
  }
  await statesSave();
});

test("a pipe in place of a scene's image: the image is answered missing, and the next save replaces it", async () => {
  assert.is((await post('/scenes/save', { name: 'Piped' })).status, 200);
  const image = join(dataDir, 'scenes', 'piped.png');
  await unlink(image).catch(() => undefined);
  mkfifo(image);
  const missing = await req('GET', api('/thumbnails/scene/piped'), { timeoutMs: 30_000 });
  assert.is(missing.status, 404, missing.text);
  await waitLogged(image, 'scene image skipped');
  assert.is((await post('/scenes/save', { name: 'Piped' })).status, 200);
  assert.ok((await lstat(image)).isFile(), 'the save wrote a regular file over the pipe');
  assert.is((await req('GET', api('/thumbnails/scene/piped'), { timeoutMs: 30_000 })).status, 200);
  await statesSave();
});

test.run();
