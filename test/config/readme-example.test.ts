// The configuration examples are what an operator copies first. The full example in docs/configuration.md must load
// as it stands and its values must be the embedded defaults it claims to show; the README's short example must load.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** The first ```json block after `heading` in the repository file `file`. */
async function example(file: string, heading: string): Promise<Record<string, unknown>> {
  const text = await readFile(join(ROOT, file), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `${file} has the heading ${heading}`);
  const block = /```json\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, `a json block under ${heading} in ${file}`);
  return JSON.parse(block[1]!) as Record<string, unknown>;
}

/** Loads `config` from a file in a temporary folder, as `vjd serve --config` would. */
async function load(config: Record<string, unknown>): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'vjd-readme-config-'));
  try {
    const file = join(dir, 'vjd.json');
    await writeFile(file, JSON.stringify(config));
    const loaded = await loadConfig({ config: file }, {});
    return loaded.config as unknown as Record<string, unknown>;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the configuration example of docs/configuration.md loads and shows the embedded defaults', async () => {
  const full = await example('docs/configuration.md', '## The config file');
  const loaded = await load(full);
  for (const key of Object.keys(full)) {
    if (key === 'dataDir') continue;
    assert.equal(loaded[key], (DEFAULT_CONFIG as unknown as Record<string, unknown>)[key], `docs/configuration.md example key "${key}"`);
  }
  // Every top-level key of the embedded defaults is shown.
  assert.equal(Object.keys(full).sort(), Object.keys(DEFAULT_CONFIG).sort());
});

test("the README's short configuration example loads with the values it shows", async () => {
  const short = await example('README.md', '## Configuration');
  const loaded = await load(short);
  for (const [key, value] of Object.entries(short)) {
    if (key === 'dataDir' || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    // Each section shown keeps the values written; keys left out take their defaults.
    const section = loaded[key] as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) assert.equal(section[k], v, `README example key "${key}.${k}"`);
  }
});

test("the README's show example loads: a box joins a show with no more than these keys", async () => {
  const loaded = await load(await example('README.md', '## A show of many boxes'));
  const show = loaded.show as { name: string; box: string; leader: boolean };
  assert.equal([show.name, show.box, show.leader], ['gig', 'foh', true]);
});

test.run();
