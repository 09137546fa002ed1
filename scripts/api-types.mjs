#!/usr/bin/env node
// Writes web/src/api-types.d.ts: openapi-typescript's types of the description a built vjd serves, so the control
// page is typed from the same route objects as the server. `--check` only compares and fails on drift; the typed
// client contract test makes the same comparison, so a route change without a regenerated file fails the tests.
// Needs `npm run build` first (it starts dist/'s server through the test helper).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'web', 'src', 'api-types.d.ts');
const check = process.argv.includes('--check');

const { startServer, req } = await import(join(root, 'dist', 'test', 'helpers', 'server.js'));

function run(args, cwd) {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { cwd, timeout: 300_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${stdout}\n${stderr}`)) : resolve(),
    ),
  );
}

const server = await startServer();
// Inside the repository, as the contract test does, so both runs of the generator see the same surroundings.
await mkdir(join(root, '.tmp'), { recursive: true });
const dir = await mkdtemp(join(root, '.tmp', 'api-types-'));
let code = 0;
try {
  const r = await req('GET', `${server.base}/api/v1/openapi.yaml`, { timeoutMs: 30_000 });
  if (r.status !== 200) throw new Error(`GET /api/v1/openapi.yaml answered ${r.status}`);
  await writeFile(join(dir, 'openapi.yaml'), r.text);
  await run([join(root, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.yaml', '-o', 'schema.d.ts'], dir);
  const types = await readFile(join(dir, 'schema.d.ts'), 'utf8');
  const have = await readFile(target, 'utf8').catch(() => '');
  if (check) {
    if (have !== types) {
      console.error('web/src/api-types.d.ts differs from the served description: run `node scripts/api-types.mjs`');
      code = 1;
    } else console.log('web/src/api-types.d.ts is up to date');
  } else if (have !== types) {
    await writeFile(target, types);
    console.log('wrote web/src/api-types.d.ts');
  } else console.log('web/src/api-types.d.ts was already up to date');
} finally {
  await rm(dir, { recursive: true, force: true });
  await server.cleanup();
}
process.exit(code);
