// Config `pixelmap`: disabled by default with no destinations; each bad value is refused at load, naming the key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load.js';

let dir = '';
let n = 0;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vjd-pixelmap-config-'));
});

test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(body: unknown): Promise<{ config?: any; key?: string; message?: string }> {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify(body));
  try {
    return { config: (await loadConfig({ config: file }, {})).config };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { key: err.key, message: err.message };
  }
}

test('the default sends nothing; a setup merges over it', async () => {
  assert.equal((await load({})).config.pixelmap, {
    enabled: false,
    rateHz: 40,
    keepAliveMs: 1000,
    sync: false,
    destinations: [],
    artnetPort: null,
    sacnPort: null,
  });
  const r = await load({ pixelmap: { enabled: true, rateHz: 44, destinations: ['10.0.0.7', 'broadcast', 'multicast'], sacnPort: 15568 } });
  assert.equal(r.config.pixelmap, {
    enabled: true,
    rateHz: 44,
    keepAliveMs: 1000,
    sync: false,
    destinations: ['10.0.0.7', 'broadcast', 'multicast'],
    artnetPort: null,
    sacnPort: 15568,
  });
});

test('bad values are refused, naming the key', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [{ rateHz: 45 }, 'pixelmap.rateHz', /1 to 44/],
    [{ rateHz: 0 }, 'pixelmap.rateHz', /1 to 44/],
    [{ keepAliveMs: 5000 }, 'pixelmap.keepAliveMs', /100 to 2000/],
    [{ destinations: ['lights.local'] }, 'pixelmap.destinations[0]', /IPv4 address, "broadcast" \(Art-Net\) or "multicast" \(sACN\)/],
    [{ destinations: ['10.0.0.1', '300.1.1.1'] }, 'pixelmap.destinations[1]', /not an IPv4 address/],
    [{ destinations: ['239.255.0.1'] }, 'pixelmap.destinations[0]', /multicast group; use "multicast"/],
    [{ destinations: ['255.255.255.255'] }, 'pixelmap.destinations[0]', /use "broadcast"/],
    [{ destinations: ['0.0.0.0'] }, 'pixelmap.destinations[0]', /not an address a packet can go to/],
    [{ destinations: ['broadcast', 'broadcast'] }, 'pixelmap.destinations[1]', /listed twice/],
    [{ artnetPort: 70000 }, 'pixelmap.artnetPort', /a port/],
    [{ enable: true }, 'pixelmap.enable', /unknown key/],
  ];
  for (const [pixelmap, key, words] of cases) {
    const r = await load({ pixelmap });
    assert.is(r.key, key, JSON.stringify(pixelmap));
    assert.match(r.message ?? '', words);
  }
});

test.run();
