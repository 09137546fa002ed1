// Tests for the config watcher (edits, rename-replace, delete/re-create, invalid files) and diffConfig.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG, type Config } from '../../src/config/schema.js';
import { diffConfig, watchConfig, type WatchResult } from '../../src/config/watch.js';

let root = '';
let counter = 0;

test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-watch-'));
});

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

const FAST = { intervalMs: 40, debounceMs: 60 };

/** Starts a watcher on a fresh file and hands out its reports one at a time. */
async function watched(initial: unknown, opts = FAST) {
  const file = join(root, `w${counter++}.json`);
  await writeFile(file, JSON.stringify(initial));
  const reports: WatchResult[] = [];
  let wake: (() => void) | undefined;
  const watcher = watchConfig(
    file,
    (result) => {
      reports.push(result);
      wake?.();
    },
    () => loadConfig({ config: file }, {}),
    opts,
  );
  // Let the first stat land, so the next write is seen as a change from it.
  await sleep(opts.intervalMs * 3);
  const next = async (timeoutMs = 1500): Promise<WatchResult> => {
    const deadline = Date.now() + timeoutMs;
    while (reports.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no config report within ${timeoutMs} ms`);
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(left)]);
    }
    return reports.shift() as WatchResult;
  };
  return { file, watcher, reports, next };
}

function okPort(result: WatchResult): number {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.message}`);
  return result.loaded.config.server.port;
}

test('sees an in-place edit', async () => {
  const w = await watched({ server: { port: 9000 } });
  try {
    await writeFile(w.file, JSON.stringify({ server: { port: 9001 } }));
    assert.is(okPort(await w.next()), 9001);
  } finally {
    w.watcher.close();
  }
});

test('sees an editor-style save that renames a new file over the old one', async () => {
  const w = await watched({ server: { port: 9000 } });
  try {
    const tmp = `${w.file}.tmp`;
    await writeFile(tmp, JSON.stringify({ server: { port: 9002 } }));
    await rename(tmp, w.file);
    assert.is(okPort(await w.next()), 9002);
    // The watch still holds after the replace.
    await writeFile(w.file, JSON.stringify({ server: { port: 9003 } }));
    assert.is(okPort(await w.next()), 9003);
  } finally {
    w.watcher.close();
  }
});

test('an invalid edit reports ok:false, a later valid one recovers', async () => {
  const w = await watched({ server: { port: 9000 } });
  try {
    await writeFile(w.file, JSON.stringify({ server: { port: 80 } }));
    const bad = await w.next();
    assert.is(bad.ok, false);
    if (!bad.ok) {
      assert.instance(bad.error, ConfigError);
      assert.is(bad.error.key, 'server.port');
    }
    await writeFile(w.file, '{ "server": ');
    const broken = await w.next();
    assert.ok(!broken.ok && /invalid JSON/.test(broken.error.message));
    await writeFile(w.file, JSON.stringify({ server: { port: 9004 } }));
    assert.is(okPort(await w.next()), 9004);
  } finally {
    w.watcher.close();
  }
});

test('survives delete and re-create', async () => {
  const w = await watched({ server: { port: 9000 } });
  try {
    await unlink(w.file);
    const gone = await w.next();
    assert.ok(!gone.ok && /file not found/.test(gone.error.message));
    await writeFile(w.file, JSON.stringify({ server: { port: 9005 } }));
    assert.is(okPort(await w.next()), 9005);
  } finally {
    w.watcher.close();
  }
});

test('a burst of writes is reported once, with the last content', async () => {
  const w = await watched({ server: { port: 9000 } }, { intervalMs: 40, debounceMs: 250 });
  try {
    for (const port of [9010, 9011, 9012]) {
      await writeFile(w.file, JSON.stringify({ server: { port } }));
      await sleep(45);
    }
    assert.is(okPort(await w.next()), 9012);
    await sleep(400);
    assert.is(w.reports.length, 0);
  } finally {
    w.watcher.close();
  }
});

test('close stops reports', async () => {
  const w = await watched({ server: { port: 9000 } });
  w.watcher.close();
  w.watcher.close();
  await writeFile(w.file, JSON.stringify({ server: { port: 9006 } }));
  await sleep(300);
  assert.is(w.reports.length, 0);
});

test('a reload that throws something else still reports ok:false, and a throwing handler is contained', async () => {
  const file = join(root, `w${counter++}.json`);
  await writeFile(file, '{}');
  const reports: WatchResult[] = [];
  let calls = 0;
  const watcher = watchConfig(
    file,
    (result) => {
      reports.push(result);
      throw new Error('handler bug');
    },
    async () => {
      calls++;
      throw new Error('disk on fire');
    },
    FAST,
  );
  try {
    await sleep(120);
    await writeFile(file, '{"dataDir":"x"}');
    await sleep(400);
    assert.is(calls, 1);
    assert.is(reports.length, 1);
    const [only] = reports;
    assert.ok(only && !only.ok && only.error instanceof ConfigError && /disk on fire/.test(only.error.message));
  } finally {
    watcher.close();
  }
});

function copy(): Config {
  return structuredClone(DEFAULT_CONFIG) as Config;
}

test('diffConfig lists nothing for equal configs', () => {
  assert.equal(diffConfig(copy(), copy()), []);
});

test('diffConfig lists changed leaves and whole arrays by dotted key', () => {
  const a = copy();
  const b = copy();
  b.server.port = 9000;
  b.server.apiKey = 'k';
  b.render.fps = 60;
  b.live.test[0] = { id: 'bars', name: 'Bars', pattern: 'smptehdbars' };
  b.live.v4l2.enabled = false;
  b.media.roots = ['/m'];
  assert.equal(diffConfig(a, b), ['server.port', 'server.apiKey', 'render.fps', 'media.roots', 'live.test', 'live.v4l2.enabled']);
  const c = copy();
  c.live.streams = [{ id: 's', name: 'S', url: 'udp://0.0.0.0:5000' }];
  assert.equal(diffConfig(a, c), ['live.streams']);
});

test.run();
