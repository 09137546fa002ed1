// A typed client generated from the served description: openapi-typescript writes the types, the client in
// client.fixture.mts calls every operation through openapi-fetch, `tsc --strict` compiles it (which fails when any
// documented answer body is typed `unknown` or `any`), and the compiled client runs against a real vjd. The same
// types, committed as web/src/api-types.d.ts, type the control page; they must match what the server describes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT } from '../helpers/server.js';
import { KEY, startFixture, type Fixture } from './fixture.js';
import { CORPUS } from './corpus.js';

let fx: Fixture;
let dir = '';

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, out: `${stdout}\n${stderr}`, stdout });
    });
  });
}

test.before(async () => {
  fx = await startFixture();
  // Inside the repository, so the client resolves openapi-fetch from its node_modules.
  await mkdir(join(ROOT, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(ROOT, '.tmp', 'typed-client-'));
});

test.after(async () => {
  await fx?.s.cleanup();
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

test('types generated from the served description compile with a client of every operation, and it runs', async () => {
  await writeFile(join(dir, 'openapi.yaml'), fx.openapiYaml);
  const gen = await run(
    process.execPath,
    [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.yaml', '-o', 'schema.d.ts'],
    dir,
  );
  assert.is(gen.code, 0, gen.out);
  const types = await readFile(join(dir, 'schema.d.ts'), 'utf8');
  // The control page is typed from the same output, committed: a route change must come with a regenerated copy.
  const shared = await readFile(join(ROOT, 'web/src/api-types.d.ts'), 'utf8');
  assert.ok(shared === types, 'web/src/api-types.d.ts differs from the served description: run `node scripts/api-types.mjs`');

  // Every documented operation is in the types, and the client calls each GET/POST one.
  const doc = YAML.parse(fx.openapiYaml);
  const client = await readFile(join(ROOT, 'test/contract/client.fixture.mts'), 'utf8');
  for (const item of Object.values(doc.paths as Record<string, any>)) {
    for (const op of Object.values(item) as any[])
      assert.ok(types.includes(`    ${op.operationId}: {`), `operation ${op.operationId} missing from the types`);
  }
  for (const op of Object.keys(CORPUS)) assert.ok(client.includes(`note('${op}'`), `the typed client does not call ${op}`);

  await copyFile(join(ROOT, 'test/contract/client.fixture.mts'), join(dir, 'client.mts'));
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        skipLibCheck: false,
        noEmitOnError: true,
      },
      files: ['client.mts', 'schema.d.ts'],
    }),
  );
  const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
  assert.is(tsc.code, 0, `tsc --strict failed:\n${tsc.out}`);

  const ran = await run(process.execPath, [join(dir, 'out', 'client.mjs'), fx.s.base, KEY, JSON.stringify(fx.ids)], dir);
  assert.is(ran.code, 0, ran.out);
  const report = JSON.parse(ran.stdout.trim().split('\n').pop() ?? '{}') as {
    results: Array<{ op: string; status: number }>;
    seen: Record<string, unknown>;
  };
  for (const { op, status } of report.results) {
    // Answers a loaded machine may give (documented; deadlines passed) are allowed, everything else must succeed.
    // The event WebSocket answers a plain (non-upgrade) GET with its documented 426.
    const ok =
      (status >= 200 && status < 300) ||
      status === 503 ||
      (status === 504 && (op.startsWith('select') || op === 'cueSource')) ||
      (op === 'getEvents' && status === 426) ||
      // The fixture's program is no media clip: its transport answers the documented 409 NOT_A_CLIP.
      (/Transport/.test(op) && op !== 'getTransport' && status === 409) ||
      // The fixture runs with MIDI off: a learn is refused at once with the documented 400 instead of waiting.
      (op === 'learnMidi' && status === 400);
    assert.ok(ok, `${op} answered ${status}`);
  }
  assert.is(typeof report.seen['version'], 'string');
  assert.is(report.seen['recordingComplete'], true);
  assert.is(typeof report.seen['deletedBytes'], 'number');
  // After a cut take the old program waits on preview; the typed answers carry the mixer's fields.
  assert.is(report.seen['takeType'], 'cut');
  assert.is(report.seen['defaultMs'], 0);
  assert.is(typeof report.seen['previewKind'], 'string');
  // A media file warmed ahead: its reader is opening or already warm, held for the documented time.
  assert.ok(['opening', 'warm'].includes(String(report.seen['warmState'])), `warm state ${report.seen['warmState']}`);
  assert.is(typeof report.seen['warmHoldMs'], 'number');
  assert.match(String(report.seen['previewType']), /^multipart\/x-mixed-replace; boundary=/);
  // An index miss reports the valid range through the typed error details (unless the chain was busy: 503).
  if (report.seen['missStatus'] === 404) assert.is(typeof report.seen['missMax'], 'number');
  else assert.is(report.seen['missStatus'], 503);
  // The parameter routes answer typed bodies: the saved preset's id, the moved chain, the applied value.
  const status = (op: string) => report.results.find((r) => r.op === op)?.status;
  if (status('savePreset') === 200) assert.is(report.seen['presetId'], 'typed_look');
  if (status('moveEffect') === 200) assert.is(typeof report.seen['movedCount'], 'number');
  if (status('setEffectParams') === 200) assert.is(report.seen['paramValue'], 0.5);
});

test('the generated types name no unknown answer: each documented JSON answer is an object type', async () => {
  const types = await readFile(join(dir, 'schema.d.ts'), 'utf8');
  // Belt and braces next to the compile-time check in the client: no answer body is declared as bare unknown.
  const bare = [...types.matchAll(/"application\/json": (unknown|any);/g)];
  // Only request bodies that are ignored (nextPalette, triggerAction) may be any JSON.
  const requestOnly = [...types.matchAll(/requestBody\?: \{\s+content: \{\s+"application\/json": unknown;/g)];
  assert.is(bare.length, requestOnly.length, 'an answer body is typed unknown or any');
});

test.run();
