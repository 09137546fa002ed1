// The README's configuration example is what an operator copies first: it must load as it stands, and its
// values must be the embedded defaults it claims to show.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

async function readmeExample(): Promise<Record<string, unknown>> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const block = /```json\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'a json block under ## Configuration');
  return JSON.parse(block[1]!) as Record<string, unknown>;
}

test('the README configuration example loads and shows the embedded defaults', async () => {
  const example = await readmeExample();
  const dir = await mkdtemp(join(tmpdir(), 'vjd-readme-config-'));
  try {
    const file = join(dir, 'vjd.json');
    await writeFile(file, JSON.stringify(example));
    const loaded = await loadConfig({ config: file }, {});
    for (const key of Object.keys(example)) {
      if (key === 'dataDir') continue;
      assert.equal(
        (loaded.config as unknown as Record<string, unknown>)[key],
        (DEFAULT_CONFIG as unknown as Record<string, unknown>)[key],
        `README example key "${key}"`,
      );
    }
    // Every top-level key of the embedded defaults is shown.
    assert.equal(Object.keys(example).sort(), Object.keys(DEFAULT_CONFIG).sort());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
