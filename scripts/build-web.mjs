#!/usr/bin/env node
// Bundles the control page (web/) into dist/web/ with esbuild: content-hashed JS and CSS, and an index.html that
// names them. Everything the page needs at run time is in that folder; nothing is fetched from elsewhere (the empty
// inline icon keeps browsers from asking for /favicon.ico, a 404 and a console error on every load).
import { build } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'web');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/src/main.tsx' },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020', 'chrome90', 'safari15', 'firefox90'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: out,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((n) => n.endsWith('.js'));
const css = outputs.find((n) => n.endsWith('.css'));
if (!js || !css) throw new Error(`bundle incomplete: ${outputs.join(', ')}`);

const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<meta name="theme-color" content="#0d0f14">
<title>vjd</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/ui/${css}">
<script type="module" src="/ui/${js}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading vjd…</p></div>
</body>
</html>
`;
await writeFile(join(out, 'index.html'), html);

const gz = (n) => gzipSync(readFileSync(join(out, n)), { level: 9 }).byteLength;
const total = gz(js) + gz(css) + gz('index.html');
console.log(`web: ${js} ${css} index.html, ${(total / 1024).toFixed(1)} KiB gzipped`);
