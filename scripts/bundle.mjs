#!/usr/bin/env node
// `npm run bundle`: one tarball that runs as `node <dir>/cli.js serve` on a linux-x64 box with Node 20, ffmpeg and Xvfb
// but no npm and no internet. esbuild turns the built server and each worker into one self-contained ESM file; the
// native addons (and the few packages loaded by path at run time) go into a pruned node_modules/ beside them.
//
// Layout: the bundle dir stands for the repo root. cli.js holds all of dist/src; the workers stay at dist/workers/<w>/
// main.js, the page at dist/web/, the assets at assets/, the version in package.json. Each `import.meta.url` in our
// code is rewritten to the URL its module had in the repo layout, so every `new URL('../../workers/…', import.meta.url)`
// resolves inside the bundle exactly as it does in a dist run, with no change to the source.
//
// Usage: node scripts/bundle.mjs [--no-build] [--out FILE]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const MAX_BYTES = 64 * 1024 * 1024;
// The addons (gl is built against this Node's headers, uWS ships one binary per ABI) are Node 20's: ABI 115.
const ABI = '115';

const { values } = parseArgs({ options: { out: { type: 'string' }, 'no-build': { type: 'boolean' } } });
if (process.versions.modules !== ABI) fail(`run this with Node 20 (ABI ${ABI}); this is Node ${process.version}`);
if (process.platform !== 'linux' || process.arch !== 'x64') fail('the bundle carries linux-x64 addons; build it on linux-x64');

const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const name = `vjd-${pkg.version}`;
const out = resolve(values.out ?? join(root, 'release', `${name}-linux-x64-node20.tar.gz`));

if (!values['no-build']) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
for (const f of ['dist/src/cli.js', 'dist/web/index.html']) {
  if (!existsSync(join(root, f))) fail(`${f} is missing: run npm run build first (or drop --no-build)`);
}

/**
 * Packages loaded at run time from node_modules: the native addons (esbuild cannot inline a .node file) and what our
 * code or a dependency loads by path (createRequire, piscina's own worker file, swagger-ui's static files). `keep`
 * picks the package's run-time files; `deps` limits which of its dependencies come along (the rest are build tools).
 * Dependencies are copied whole, less what the junk filter drops.
 */
const RUNTIME = {
  gl: {
    keep: /^(package\.json|index\.js|LICENSES.*|src\/javascript\/.*|build\/Release\/webgl\.node)$/,
    deps: ['bindings', 'bit-twiddle', 'glsl-tokenizer'],
  },
  sharp: { keep: /^(package\.json|LICENSE|dist\/.*)$/ },
  piscina: { keep: /^(package\.json|LICENSE|dist\/.*)$/ },
  // src/uws.js loads the ABI binary; dist/*.js is the package's JS fallback, which vjd detects and reports.
  // bufferutil and utf-8-validate only speed up that fallback's ws.
  'uWebSockets.js': {
    keep: new RegExp(`^(package\\.json|LICENSE|src/uws\\.js|binaries/uws_linux_x64_${ABI}\\.node|dist/[^/]+\\.js)$`),
    deps: ['ws'],
  },
  '@julusian/midi': {
    keep: /^(package\.json|LICENSE|[\w-]+\.js|dist\/.*|prebuilds\/midi-linux-x64\/.*)$/,
    deps: ['pkg-prebuilds', 'tslib'],
  },
  // Only the files src/api/docs.ts serves; @scarf/scarf is an install-time analytics hook.
  'swagger-ui-dist': {
    keep: /^(package\.json|LICENSE|swagger-ui\.css|index\.css|swagger-ui-bundle\.js|swagger-ui-standalone-preset\.js|favicon-(16x16|32x32)\.png)$/,
    deps: [],
  },
  // Not serialport (optional, a native addon per platform): vjd speaks OSC over UDP only, and osc stubs it when absent.
  osc: { keep: /^(package\.json|.*LICENSE.*|src\/.*)$/, deps: ['long', 'slip', 'wolfy87-eventemitter', 'ws'] },
};
const EXTERNAL = Object.keys(RUNTIME);
/** Never needed at run time in a package: types, source maps, docs, tests (a license file is always kept). */
const isJunk = (p) =>
  /(^|\/)(test|tests|docs|benchmark|examples?|\.github)\/|\.(d\.[cm]?ts|map|md|markdown)$/i.test(p) && !/LICEN[CS]E/i.test(p);

const stage = await mkdtemp(join(tmpdir(), 'vjd-bundle-'));
try {
  const dir = join(stage, name);
  await bundleCode(dir);
  await copyTree(join(root, 'assets'), join(dir, 'assets'));
  await copyTree(join(root, 'dist', 'web'), join(dir, 'dist', 'web'));
  const copied = new Set();
  for (const [p, spec] of Object.entries(RUNTIME)) await copyPackage(join(root, 'node_modules', p), dir, spec, copied);
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, private: true, type: 'module', engines: pkg.engines, bin: { vjd: 'cli.js' } }, null, 2)}\n`,
  );
  await mkdir(dirname(out), { recursive: true });
  // Owner and order fixed, so the archive does not depend on who built it or the order readdir gave.
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-C', stage, '-czf', out, name]);
  const { size } = await stat(out);
  const mib = (size / 1024 / 1024).toFixed(1);
  if (size >= MAX_BYTES) throw new Error(`${out} is ${mib} MiB, over the 64 MiB limit`);
  console.log(`bundle: ${out} ${mib} MiB (${size} bytes), ${copied.size} runtime packages`);
} catch (err) {
  console.error(`bundle: ${err.message}`);
  process.exitCode = 1;
} finally {
  await rm(stage, { recursive: true, force: true });
}

/** The server (cli.js) and every worker entry (dist/workers/<w>/main.js, the fuse compile helper), one file each. */
async function bundleCode(dir) {
  const distDir = join(root, 'dist');
  const entries = { 'cli.js': 'dist/src/cli.js' };
  for (const f of await walk(join(distDir, 'workers'))) {
    const rel = relative(root, f).split(sep).join('/');
    if (/(^|[/-])main\.js$/.test(rel)) entries[rel] = rel;
  }
  const escaped = distDir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const reposition = {
    name: 'repo-layout-urls',
    setup(b) {
      b.onLoad({ filter: new RegExp(`^${escaped}[\\\\/].*\\.js$`) }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = relative(root, args.path).split(sep).join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, __vjdRoot).href`),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
  for (const [to, from] of Object.entries(entries)) {
    // __vjdRoot: the bundle dir, from wherever this output file sits; `require` for CJS dependencies inlined into ESM.
    const up = '../'.repeat(to.split('/').length - 1) || './';
    await build({
      absWorkingDir: root,
      entryPoints: [join(root, from)],
      outfile: join(dir, to),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: EXTERNAL,
      keepNames: true,
      banner: {
        js: `import { createRequire as __vjdCreateRequire } from 'node:module';\nconst require = __vjdCreateRequire(import.meta.url);\nconst __vjdRoot = new URL('${up}', import.meta.url);`,
      },
      plugins: [reposition],
      logLevel: 'warning',
    });
  }
  await chmod(join(dir, 'cli.js'), 0o755);
}

/** Copies one package (its `keep` files) and, recursively and whole, the dependencies it needs at run time. */
async function copyPackage(src, dir, spec, copied) {
  const rel = relative(root, src);
  if (copied.has(rel)) return;
  copied.add(rel);
  const meta = JSON.parse(await readFile(join(src, 'package.json'), 'utf8'));
  await copyTree(src, join(dir, rel), (p) => !isJunk(p) && (spec.keep?.test(p) ?? true) && !/(^|\/)node_modules\//.test(p));
  const optional = Object.keys(meta.optionalDependencies ?? {});
  const deps = spec.deps ?? [...Object.keys(meta.dependencies ?? {}), ...optional];
  for (const d of deps) {
    const found = locate(src, d);
    if (found) await copyPackage(found, dir, {}, copied);
    else if (!optional.includes(d)) throw new Error(`${meta.name} needs ${d}, which is not installed`);
  }
}

/** Where Node would find package `name` from `from`: the nearest node_modules/<name> up to the repo root. */
function locate(from, name) {
  for (let d = from; d.startsWith(root); d = dirname(d)) {
    const p = join(d, 'node_modules', name);
    if (existsSync(join(p, 'package.json'))) return p;
    if (d === root) break;
  }
  return null;
}

async function copyTree(src, dst, pick = () => true) {
  for (const f of await walk(src)) {
    const rel = relative(src, f).split(sep).join('/');
    if (!pick(rel)) continue;
    await mkdir(dirname(join(dst, rel)), { recursive: true });
    await copyFile(f, join(dst, rel)); // keeps the mode (executables, .node files)
  }
}

async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function fail(message) {
  console.error(`bundle: ${message}`);
  process.exit(1);
}
