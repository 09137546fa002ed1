// The <dataDir>/midi folder against a real server: named pipes there (present at start, made while it runs) are
// left out with a warning instead of holding file threads, an unreadable learned.json is kept under a new name
// rather than overwritten by the next learn, and mappings naming no controllable address are left out at load,
// each reported by file (or config) and index.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

const render = { width: 64, height: 48, fps: 20 };
const until = (cond: () => Promise<boolean> | boolean) => waitUntil(cond, 30_000, 100);
const get = async (s: TestServer, p: string) => (await req('GET', `${s.base}/api/v1${p}`, { timeoutMs: 20_000 })).json();

/** Log lines of the server as objects. */
const logLines = (s: TestServer): Array<Record<string, unknown>> =>
  s
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const warned = (s: TestServer, file: string, index: number | null = null): boolean =>
  logLines(s).some((l) => l.level === 'warn' && l.file === file && (l.index ?? null) === index);

/** Replaces a file the way editors do, so the watch sees one change. */
async function put(path: string, data: unknown): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify(data));
  await rename(`${path}.tmp`, path);
}

test('named pipes in the mapping folder are left out with a warning; reloads and state saves go on', async () => {
  const dataDir = await tempDir();
  const dir = join(dataDir, 'midi');
  await mkdir(dir, { recursive: true });
  execFileSync('mkfifo', [join(dir, 'k.json')]);
  // Before the fix the start itself blocks in open() on the pipe: the server never answers and this throws.
  const s = await startServer({ dataDir, config: { render, midi: { enabled: true } } });
  try {
    await until(() => warned(s, 'k.json'));
    execFileSync('mkfifo', [join(dir, 'p.json')]);
    // Each write reloads the folder, pipes included; each reload is seen in the mapping count.
    const real = join(dir, 'real.json');
    for (let n = 1; n <= 6; n++) {
      await put(
        real,
        Array.from({ length: n }, (_, k) => ({ type: 'cc', number: k, to: '/vjd/global/dimmer' })),
      );
      await until(async () => (await get(s, '/midi')).mappings === n);
    }
    assert.ok(warned(s, 'p.json'), 'the pipe made while running is named in the log');
    const dimmer = await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.25 }, timeoutMs: 30_000 });
    assert.is(dimmer.status, 200, dimmer.text);
    const scene = await req('POST', `${s.base}/api/v1/scenes/save`, { body: { name: 'After pipes' }, timeoutMs: 30_000 });
    assert.is(scene.status, 200, scene.text);
    const problems = (await get(s, '/midi')).mappingProblems.map((p: any) => `${p.from}:${p.index}`);
    assert.ok(problems.includes('k.json:null') && problems.includes('p.json:null'), problems.join(' '));
  } finally {
    await s.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('an unreadable learned.json is kept under a new name, and the next learn does not overwrite it', async () => {
  const dataDir = await tempDir();
  const dir = join(dataDir, 'midi');
  await mkdir(dir, { recursive: true });
  const bad = '[{"type": "cc", "number": 3, "to": "/vjd/global/dimmer"},';
  await writeFile(join(dir, 'learned.json'), bad);
  const s = await startServer({ dataDir, config: { render, midi: { enabled: true } } });
  try {
    const m = await get(s, '/midi');
    assert.match(m.learnedSetAside, /^learned\.json\.bad-\d{4}-\d\d-\d\dT/);
    assert.is(await readFile(join(dir, m.learnedSetAside), 'utf8'), bad);
    assert.ok(warned(s, 'learned.json'), 'the log says learned.json was not read');
    assert.ok(
      logLines(s).some((l) => l.keptAs === m.learnedSetAside),
      'the log names the kept file',
    );
    const learning = req('POST', `${s.base}/api/v1/midi/learn`, { body: { operation: '/vjd/global/dimmer' }, timeoutMs: 20_000 });
    await until(async () => (await get(s, '/midi')).learning === true);
    await req('POST', `${s.base}/api/v1/_test/midi`, { body: { port: 'Keys', messages: [[0xb0, 9, 1]] } });
    assert.is((await learning).status, 200);
    await until(async () => (await readdir(dir)).includes('learned.json'));
    await until(async () => (await readFile(join(dir, 'learned.json'), 'utf8')).includes('"number": 9'));
    assert.is(await readFile(join(dir, m.learnedSetAside), 'utf8'), bad, 'the kept file is untouched');
  } finally {
    await s.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('mappings whose target is no controllable address are left out at load, each named by file and index', async () => {
  const dataDir = await tempDir();
  const dir = join(dataDir, 'midi');
  await mkdir(dir, { recursive: true });
  await put(join(dir, 'desk.json'), {
    mappings: [
      { type: 'cc', number: 1, to: '/vjd/global/dimmer' },
      { type: 'cc', number: 2, to: '/vjd/../../etc' },
      { type: 'note', number: 3, to: '/vjd/status/fps' },
    ],
  });
  const s = await startServer({
    dataDir,
    config: {
      render,
      midi: {
        enabled: true,
        mappings: [
          { type: 'cc', number: 4, to: '/vjd/nowhere' },
          { type: 'cc', number: 5, to: '/vjd/global/blackout' },
        ],
      },
    },
  });
  try {
    const m = await get(s, '/midi');
    assert.is(m.mappings, 2);
    const problems = m.mappingProblems.map((p: any) => `${p.from}:${p.index}`).sort();
    assert.equal(problems, ['config:0', 'desk.json:1', 'desk.json:2']);
    assert.match(m.mappingProblems.find((p: any) => p.from === 'desk.json' && p.index === 1).reason, /\/vjd\/\.\.\/\.\.\/etc/);
    for (const [file, index] of [
      ['config', 0],
      ['desk.json', 1],
      ['desk.json', 2],
    ] as const)
      assert.ok(warned(s, file, index), `${file} ${index} named in the log`);
    // A left-out mapping never reaches the route table; messages apply in order, so once the next one has acted
    // the first would have been counted as rejected.
    await req('POST', `${s.base}/api/v1/_test/midi`, {
      body: {
        port: 'Keys',
        messages: [
          [0xb0, 2, 64],
          [0xb0, 1, 64],
        ],
      },
    });
    await until(async () => (await get(s, '/global')).dimmer === 64 / 127);
    assert.is((await get(s, '/midi')).rejected, 0);
  } finally {
    await s.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test.run();
