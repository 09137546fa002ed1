// The import layers docs/architecture.md promises, read from the source tree: workers/ and src/shared/ reach only into
// src/shared/, src/util/ into nothing of vjd's own, routes, config and shared code never into src/app/, state and
// sources never up into the layer stack, the desk transports never into the routes, and no file imports itself
// through others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Edge {
  from: string;
  to: string;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const ent of await readdir(join(ROOT, dir), { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...(await sourceFiles(p)));
    else if (ent.name.endsWith('.ts') && !ent.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// Static imports, re-exports, side-effect imports and dynamic import() calls; specifiers of packages are skipped.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import of the files under `dir`, as root-relative paths of the .ts files they name. */
async function edges(dir: string): Promise<Edge[]> {
  const out: Edge[] = [];
  for (const file of await sourceFiles(dir)) {
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(SPECIFIER)) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), m[1]!)).replace(/\.js$/, '.ts');
      out.push({ from: file, to: target });
    }
  }
  return out;
}

const show = (e: Edge): string => `${e.from} -> ${e.to}`;
const under = (path: string, dir: string): boolean => path.startsWith(`${dir}/`);

test('the scanner sees the imports it judges', async () => {
  const found = (await edges('workers/render')).map(show);
  assert.ok(found.includes('workers/render/chain.ts -> src/shared/param-values.ts'), found.join('\n'));
  assert.ok(found.includes('workers/render/main.ts -> workers/render/engine.ts'), found.join('\n'));
});

test('workers/ import nothing of src/ beyond src/shared/', async () => {
  const all = await edges('workers');
  const bad = all.filter((e) => under(e.to, 'src') && !under(e.to, 'src/shared')).map(show);
  assert.equal(bad, []);
});

// The one limits module is constants only, so shared code (output kinds) may read it; it must stay a leaf.
const LIMITS = 'src/limits.ts';

test('src/shared/ imports only src/shared/ (and the limits module)', async () => {
  const bad = (await edges('src/shared')).filter((e) => !under(e.to, 'src/shared') && e.to !== LIMITS).map(show);
  assert.equal(bad, []);
});

test('src/limits.ts imports nothing', async () => {
  const text = await readFile(join(ROOT, LIMITS), 'utf8');
  assert.equal([...text.matchAll(/^\s*import\b/gm)].length, 0);
});

test('src/util/ imports only src/util/', async () => {
  const bad = (await edges('src/util')).filter((e) => !under(e.to, 'src/util')).map(show);
  assert.equal(bad, []);
});

test('routes, config and shared code never import src/app/', async () => {
  const all = [...(await edges('src/api')), ...(await edges('src/config')), ...(await edges('src/shared'))];
  assert.ok(all.length > 0);
  assert.equal(all.filter((e) => under(e.to, 'src/app')).map(show), []);
});

// The layer stack is built from sources and saved through state, so neither of those reaches back up into it.
test('src/state/ and src/sources/ never import src/layers/', async () => {
  const all = [...(await edges('src/state')), ...(await edges('src/sources'))];
  assert.ok(all.length > 0);
  assert.equal(all.filter((e) => under(e.to, 'src/layers')).map(show), []);
});

// The desk transports reach the routes through the one dispatch only: what they read of the show is handed to them
// (src/app/transport-lookups.ts), so a route module's schemas and handlers never become theirs.
test('src/osc/, src/dmx/, src/midi/, src/mqtt/ and src/transports/ never import src/api/', async () => {
  const dirs = ['src/osc', 'src/dmx', 'src/midi', 'src/mqtt', 'src/transports'];
  const all = (await Promise.all(dirs.map((d) => edges(d)))).flat();
  assert.ok(all.length > 0);
  assert.equal(all.filter((e) => under(e.to, 'src/api')).map(show), []);
});

/** The import cycles among `edges` (type imports count too: a cycle of types still ties the files together). */
function cycles(all: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of all) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components: each component of more than one file is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('the cycle finder finds a cycle', () => {
  const loop = [
    { from: 'a.ts', to: 'b.ts' },
    { from: 'b.ts', to: 'c.ts' },
    { from: 'c.ts', to: 'a.ts' },
    { from: 'c.ts', to: 'd.ts' },
  ];
  assert.equal(cycles(loop), [['a.ts', 'b.ts', 'c.ts']]);
  assert.equal(cycles(loop.slice(0, 2)), []);
});

test('no import cycles in src/ and workers/', async () => {
  const all = [...(await edges('src')), ...(await edges('workers'))];
  assert.equal(
    cycles(all).map((c) => c.join(' <-> ')),
    [],
  );
});

test.run();
