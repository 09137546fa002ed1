// The release bundle (scripts/bundle.mjs, docs/bundle.md): packed from dist/, unpacked where no node_modules is up the
// tree, its own cli.js activates a license and serves with the bundle's workers, addons, page and assets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, req, startServer, tempDir, waitUntil, type Res, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let work = '';
let cli = '';
let s: TestServer | null = null;

const bundleCli = (args: string[]) => run(process.execPath, [cli, ...args], { cwd: work });
const api = (p: string): string => `${s!.base}/api/v1${p}`;

test.before(async () => {
  work = await tempDir('vjd-bundle-test-');
});

test.after(async () => {
  await s?.cleanup();
  await rm(work, { recursive: true, force: true });
});

test('the bundle script writes one tarball under 64 MiB that unpacks into one folder', async () => {
  const out = join(work, 'vjd.tar.gz');
  const r = await run(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs'), '--no-build', '--out', out], { cwd: ROOT });
  assert.match(r.stdout, /\d+(\.\d+)? MiB/);
  const { size } = await stat(out);
  assert.ok(size < 64 * 1024 * 1024, `${size} bytes`);
  const unpacked = join(work, 'unpacked');
  await mkdir(unpacked);
  await run('tar', ['-xzf', out, '-C', unpacked]);
  const top = await readdir(unpacked);
  assert.equal(top, [`vjd-${version}`]);
  cli = join(unpacked, top[0]!, 'cli.js');
  assert.ok(existsSync(cli));
  // Nothing up the tree could lend a package: only the bundle's own node_modules can answer.
  for (let d = dirname(dirname(cli)); d !== dirname(d); d = dirname(d)) assert.not.ok(existsSync(join(d, 'node_modules')), d);
});

test("the bundle's cli.js prints the version and activates a community license", async () => {
  assert.is((await bundleCli(['--version'])).stdout.trim(), version);
  const dataDir = join(work, 'data');
  const act = await bundleCli(['license', 'activate', '--community', '--data-dir', dataDir]);
  assert.match(act.stdout, /activated community license/);
  assert.match((await bundleCli(['license', 'status', '--data-dir', dataDir])).stdout, /community license/);
});

test('it serves: status, a generator selected, the current thumbnail, the page', async () => {
  s = await startServer({ cli, license: 'none', dataDir: join(work, 'data') });
  const st = await req('GET', api('/status'));
  assert.is(st.status, 200, st.text);
  const body = st.json();
  assert.is(body.version, version);
  // The native uWS binary came along (the package's JS fallback would say native: false).
  assert.is(body.httpEngine.native, true);

  const items = (await req('GET', api('/sources'))).json().items as Array<{ id: string; sourceKind: string }>;
  const gen = items.find((i) => i.sourceKind === 'generator');
  assert.ok(gen, 'a generator in GET /sources');
  // 504 ACTIVATION_TIMEOUT is a documented answer on a loaded box; ask again until the render worker drew it.
  let sel: Res | null = null;
  await waitUntil(
    async () => {
      sel = await req('POST', api('/sources/select'), { body: { id: gen!.id }, timeoutMs: 15000 });
      return sel.status !== 504;
    },
    45000,
    500,
  );
  assert.is(sel!.status, 200, sel!.text);
  assert.is(sel!.json().current.id, gen!.id);

  // 503 (queue full, preview timeout) is documented under load too.
  let thumb: Res | null = null;
  await waitUntil(
    async () => {
      thumb = await req('GET', api('/thumbnails/current'), { timeoutMs: 15000 });
      return thumb.status !== 503;
    },
    45000,
    500,
  );
  assert.is(thumb!.status, 200, thumb!.text.slice(0, 200));
  const type = String(thumb!.headers['content-type']);
  const png = thumb!.body.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const jpeg = thumb!.body[0] === 0xff && thumb!.body[1] === 0xd8;
  assert.ok((type === 'image/png' && png) || (type === 'image/jpeg' && jpeg), `${type}, ${thumb!.body.byteLength} bytes`);

  const page = await req('GET', `${s.base}/ui/`);
  assert.is(page.status, 200);
  assert.match(page.text, /<script type="module" src="\/ui\/app-/);
});

test.run();
