// Style is settled by a command: Biome's formatter and linter (biome.jsonc) over the whole tree, as `npm run lint`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test('biome ci: every file formatted, no lint error', () => {
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'biome'), ['ci', '--max-diagnostics=20', '.'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.error, undefined, String(r.error));
  assert.ok(r.status === 0, `biome ci failed (run npm run format, then npm run lint):\n${r.stdout}\n${r.stderr}`);
});

test.run();
