// Tests for the browse tree and GET /browse semantics: order, hidden empty folders, paths, slugs, depth, errors, speed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/errors.js';
import {
  buildBrowseTree,
  fileItem,
  folderId,
  liveItem,
  slugify,
  type BrowseItem,
  type BrowseNode,
  type BrowseTree,
  type FolderNode,
} from '../../src/browse/tree.js';
import { listFolder, mediaFolders, providerFolders, type FolderContent } from '../../src/browse/folders.js';
import { SOURCE_KIND_LIST, type SourceKind } from '../../src/sources/kinds/index.js';
import { listBrowse, listBrowseJson } from '../../src/browse/listing.js';
import { freezeSnapshot, mediaId, type MediaFile, type MediaFolder, type MediaRoot, type MediaSnapshot } from '../../src/library/scan.js';

type Spec = { [name: string]: Spec | 'video' | 'image' };

/** A media root from a nested spec: objects are folders, strings are files (`name.ext` → type). */
function root(path: string, index: number, spec: Spec): MediaRoot {
  const folder = (abs: string, rel: string, s: Spec): MediaFolder => {
    const folders: MediaFolder[] = [];
    const files: MediaFile[] = [];
    for (const [name, v] of Object.entries(s)) {
      const r = rel === '' ? name : `${rel}/${name}`;
      if (typeof v === 'string') {
        const base = name.replace(/\.[^.]*$/, '');
        files.push({
          id: mediaId(path, r),
          name: base,
          type: v,
          path: `${abs}/${name}`,
          relPath: r,
          rootIndex: index,
          width: 640,
          height: 360,
          durationSec: v === 'video' ? 5 : null,
          fps: v === 'video' ? 30 : null,
          size: 1,
          mtimeMs: 1,
        });
      } else folders.push({ ...folder(`${abs}/${name}`, r, v), name });
    }
    return { name: abs.split('/').pop() ?? '', path: abs, relPath: rel, folders, files };
  };
  return { ...folder(path, '', spec), index, exists: true };
}

const source = (id: string, name: string): BrowseItem => ({
  kind: 'sourceType',
  id,
  name,
  thumbnailUrl: `/api/v1/thumbnails/source/${id}`,
  activate: { method: 'POST', path: '/api/v1/sources/select', body: { name } },
});

interface BrowseInputs {
  sources: BrowseItem[];
  presets: BrowseItem[];
  live: Array<{ provider: string; label: string; items: BrowseItem[] }>;
  files: MediaSnapshot;
}

/** The tree over the source kinds' root folders (registry order), filled with these items. */
function treeOf(i: BrowseInputs): BrowseTree {
  const content: Partial<Record<SourceKind, FolderContent>> = {
    generator: listFolder(i.sources),
    preset: listFolder(i.presets),
    live: providerFolders(i.live),
    file: mediaFolders(i.files),
  };
  // A kind these tests do not fill gets an empty root (hidden at /).
  return buildBrowseTree(SOURCE_KIND_LIST.map((k) => ({ ...(content[k.kind] ?? listFolder([])), ...k.folder })));
}

function inputs(over: Partial<BrowseInputs> = {}): BrowseInputs {
  return {
    sources: [source('source:zeta', 'Zeta'), source('source:alpha', 'Alpha')],
    presets: [],
    live: [
      {
        provider: 'test',
        label: 'Test Patterns',
        items: [liveItem({ id: 'bars', name: 'Color Bars' }), liveItem({ id: 'aaa', name: 'AAA' })],
      },
      { provider: 'v4l2', label: 'Video4Linux', items: [] },
    ],
    files: freezeSnapshot(1, [
      root('/m', 0, { Loops: { 'b.mp4': 'video', 'A.mp4': 'video', Deep: { 'x.png': 'image' } }, Empty: { Inner: {} }, 'c.jpg': 'image' }),
    ]),
    ...over,
  };
}

const errCode = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
  return 'none';
};
const names = (nodes: readonly BrowseNode[]): string[] => nodes.map((n) => n.name);
const folder = (nodes: readonly BrowseNode[], name: string): FolderNode => {
  const f = nodes.find((n) => n.kind === 'folder' && n.name === name);
  assert.ok(f, `folder ${name}`);
  return f as FolderNode;
};

test('roots in order; empty roots omitted from / but addressable', () => {
  const tree = treeOf(inputs());
  const r = listBrowse(tree, undefined, undefined, null);
  assert.equal(r.path, '/');
  assert.is(r.parentPath, null);
  assert.equal(
    r.items.map((n) => (n as FolderNode).browsePath),
    ['/sources', '/live', '/files'],
  );
  assert.is(r.count, 3);
  const presets = listBrowse(tree, '/presets', undefined, null);
  assert.equal(presets, { path: '/presets', parentPath: '/', count: 0, items: [] });
  const empty = treeOf({ sources: [], presets: [], live: [], files: freezeSnapshot(1, []) });
  assert.equal(listBrowse(empty, '/', '3', null).items, []);
  for (const p of ['/sources', '/presets', '/live', '/files']) assert.is(listBrowse(empty, p, '1', null).count, 0);
  assert.is(
    errCode(() => listBrowse(empty, '/live/test', '1', null)),
    'PATH_NOT_FOUND',
  );
});

test('live provider folders: empty provider hidden but addressable; enumeration order kept', () => {
  const tree = treeOf(inputs());
  const live = listBrowse(tree, '/live', '1', null);
  assert.equal(
    live.items.map((n) => (n as FolderNode).browsePath),
    ['/live/test'],
  );
  assert.is((live.items[0] as FolderNode).name, 'Test Patterns');
  assert.equal(listBrowse(tree, '/live/v4l2', '1', null).items, []);
  const test1 = listBrowse(tree, '/live/test', '1', null);
  assert.equal(names(test1.items), ['Color Bars', 'AAA']);
  const bars = test1.items[0];
  assert.equal(bars, {
    kind: 'liveInput',
    id: 'liveInput:bars',
    name: 'Color Bars',
    activeState: false,
    thumbnailUrl: '/api/v1/thumbnails/live/bars',
    activate: { method: 'POST', path: '/api/v1/inputs/live/select', body: { id: 'bars' } },
  });
});

test('sources keep caller order; files sort folders first, then items, case-insensitive', () => {
  const tree = treeOf(inputs());
  assert.equal(names(listBrowse(tree, '/sources', '1', null).items), ['Zeta', 'Alpha']);
  const files = listBrowse(tree, '/files', '1', null);
  assert.equal(names(files.items), ['Loops', 'c']); // Empty (only an empty subfolder) is hidden
  assert.equal(names(listBrowse(tree, '/files/loops', '1', null).items), ['Deep', 'A', 'b']);
  const c = files.items[1];
  const id = mediaId('/m', 'c.jpg');
  assert.equal(c, {
    kind: 'fileInput',
    id,
    name: 'c',
    activeState: false,
    thumbnailUrl: `/media/thumbnails/${id}`,
    activate: { method: 'POST', path: '/api/v1/inputs/file/select', body: { id } },
  });
  assert.equal(fileItem({ id } as MediaFile).thumbnailUrl, `/media/thumbnails/${id}`);
});

test('childCount counts visible children only; empty media folders addressable', () => {
  const tree = treeOf(inputs());
  const files = listBrowse(tree, '/files', '1', null);
  assert.is(folder(files.items, 'Loops').childCount, 3);
  assert.is(folder(listBrowse(tree, '/', '1', null).items, 'Media Files').childCount, 2);
  assert.is(folder(listBrowse(tree, '/', '1', null).items, 'Live Inputs').childCount, 1);
  assert.equal(listBrowse(tree, '/files/empty', '1', null).items, []);
  assert.equal(listBrowse(tree, '/files/empty/inner', '1', null).parentPath, '/files/empty');
  assert.is(
    errCode(() => listBrowse(tree, '/files/gone', '1', null)),
    'PATH_NOT_FOUND',
  );
});

test('folder ids are stable and derived from browsePath', () => {
  const a = listBrowse(treeOf(inputs()), '/files', '1', null);
  const b = listBrowse(treeOf(inputs({ sources: [] })), '/files', '1', null);
  const la = folder(a.items, 'Loops');
  assert.is(la.id, folder(b.items, 'Loops').id);
  assert.is(la.id, folderId('/files/loops'));
  assert.match(la.id, /^folder:[0-9a-f]{16}$/);
  assert.is(la.activeState, false);
});

test('slugs: lower-case, other runs to -, trimmed, empty → item; sibling collisions get -2, -3 in name order', () => {
  assert.is(slugify('  Hello, World!! '), 'hello-world');
  assert.is(slugify('snake_case Name'), 'snake_case-name');
  assert.is(slugify('***'), 'item');
  assert.is(slugify('Déjà Vu'), 'd-j-vu');
  const files = freezeSnapshot(1, [
    root('/m', 0, {
      'A B': { '1.png': 'image' },
      'a-b': { '2.png': 'image' },
      'a b': { '3.png': 'image' },
      'a-b-2': { '4.png': 'image' },
      '!!!': { '5.png': 'image' },
    }),
  ]);
  const tree = treeOf({ sources: [], presets: [], live: [], files });
  const listed = listBrowse(tree, '/files', '1', null).items.map((n) => [n.name, (n as FolderNode).browsePath]);
  // Name order is case-insensitive, ties broken by the exact name: 'A B' < 'a b' < 'a-b'.
  assert.equal(listed, [
    ['!!!', '/files/item'],
    ['A B', '/files/a-b'],
    ['a b', '/files/a-b-3'],
    ['a-b', '/files/a-b-4'],
    ['a-b-2', '/files/a-b-2'],
  ]);
  for (const [, p] of listed) assert.match(p as string, /^[a-z0-9/_-]+$/);
});

test('several media roots: one folder per root named after its base name', () => {
  const files = freezeSnapshot(1, [
    root('/a/media', 0, { 'x.mp4': 'video' }),
    root('/b/media', 1, { 'y.mp4': 'video' }),
    root('/c/empty', 2, {}),
  ]);
  const tree = treeOf({ sources: [], presets: [], live: [], files });
  const r = listBrowse(tree, '/files', '1', null);
  assert.equal(
    r.items.map((n) => (n as FolderNode).browsePath),
    ['/files/media', '/files/media-2'],
  );
  assert.equal(names(listBrowse(tree, '/files/media-2', '1', null).items), ['y']);
  assert.equal(listBrowse(tree, '/files/empty', '1', null).items, []);
});

test('depth 1/2/3 shapes; children equal a direct request', () => {
  const tree = treeOf(inputs());
  const d1 = listBrowse(tree, '/', '1', null);
  assert.ok(d1.items.every((n) => !('children' in n)));
  const d2 = listBrowse(tree, '/', '2', null);
  for (const n of d2.items) {
    const f = n as FolderNode;
    assert.equal(f.children, listBrowse(tree, f.browsePath, '1', null).items);
    for (const c of f.children ?? []) assert.not.ok('children' in c);
  }
  const d3 = listBrowse(tree, '/', '3', null);
  for (const n of d3.items) {
    const f = n as FolderNode;
    assert.equal(f.children, listBrowse(tree, f.browsePath, '2', null).items);
    for (const c of f.children ?? [])
      if (c.kind === 'folder') assert.ok(Array.isArray(c.children) && c.children.every((g) => !('children' in g)));
  }
  assert.equal(JSON.parse(listBrowseJson(tree, '/', '3', null)), JSON.parse(JSON.stringify(d3)));
});

test('activeState on at most one item, by browse node id', () => {
  const tree = treeOf(inputs());
  const count = (nodes: readonly BrowseNode[]): number =>
    nodes.reduce((n, x) => n + (x.activeState ? 1 : 0) + (x.kind === 'folder' ? count(x.children ?? []) : 0), 0);
  const deep = mediaId('/m', 'Loops/Deep/x.png');
  assert.is(count(listBrowse(tree, '/', '3', deep).items), 0); // three levels down from / is /files/loops/deep: not listed
  assert.is(count(listBrowse(tree, '/files', '3', deep).items), 1);
  const bars = listBrowse(tree, '/live/test', '1', 'liveInput:bars').items;
  assert.equal(
    bars.map((n) => n.activeState),
    [true, false],
  );
  assert.is(count(listBrowse(tree, '/live/test', '1', 'bars').items), 0); // a bare device id is not a node id
  assert.is(count(listBrowse(tree, '/', '3', 'liveInput:bars').items), 1);
  const dup = treeOf(inputs({ presets: [source('source:alpha', 'Alpha again')] }));
  assert.is(count(listBrowse(dup, '/', '2', 'source:alpha').items), 1);
  // Shared precomputed nodes are not mutated by marking.
  assert.is(count(listBrowse(tree, '/live/test', '1', null).items), 0);
  const json = JSON.parse(listBrowseJson(tree, '/live/test', '1', 'liveInput:aaa')) as { items: BrowseNode[] };
  assert.equal(
    json.items.map((n) => n.activeState),
    [false, true],
  );
  assert.equal(
    (JSON.parse(listBrowseJson(tree, '/live/test', '1', null)) as { items: BrowseNode[] }).items.map((n) => n.activeState),
    [false, false],
  );
});

test('parentPath, case-insensitive paths, trailing slash', () => {
  const tree = treeOf(inputs());
  assert.is(listBrowse(tree, '/files/loops/deep', '1', null).parentPath, '/files/loops');
  assert.is(listBrowse(tree, '/sources', '1', null).parentPath, '/');
  assert.is(listBrowse(tree, '/FILES/Loops/', '1', null).path, '/files/loops');
  assert.is(listBrowse(tree, '/live/', undefined, null).path, '/live');
  assert.is(listBrowse(tree, '//', undefined, null).path, '/');
  assert.is(
    errCode(() => listBrowse(tree, '/live//', '1', null)),
    'PATH_NOT_FOUND',
  );
  assert.is(
    errCode(() => listBrowse(tree, '///', '1', null)),
    'PATH_NOT_FOUND',
  );
  assert.is(
    errCode(() => listBrowse(tree, 'sources', '1', null)),
    'PATH_NOT_FOUND',
  );
  assert.is(
    errCode(() => listBrowse(tree, '/nope', '1', null)),
    'PATH_NOT_FOUND',
  );
});

test('INVALID_PATH: length and characters; checked before depth and lookup', () => {
  const tree = treeOf(inputs());
  const max = `/${'a'.repeat(511)}`;
  assert.is(
    errCode(() => listBrowse(tree, max, '1', null)),
    'PATH_NOT_FOUND',
  );
  assert.is(
    errCode(() => listBrowse(tree, `${max}a`, '1', null)),
    'INVALID_PATH',
  );
  for (const bad of ['', '/files/a b', '/files/a.b', '/ü', '/a%2F', '/../etc', '/x?y'])
    assert.is(
      errCode(() => listBrowse(tree, bad, '1', null)),
      'INVALID_PATH',
      bad,
    );
  assert.is(
    errCode(() => listBrowse(tree, '/a b', 'x', null)),
    'INVALID_PATH',
  );
  assert.is(
    errCode(() => listBrowse(tree, '/nope', 'x', null)),
    'INVALID_DEPTH',
  );
});

test('INVALID_DEPTH: only 1, 2, 3 as plain text', () => {
  const tree = treeOf(inputs());
  for (const bad of ['1.5', 'abc', '0', '4', '', '01', '+2', ' 2', '2.0', '-1', '1e0'])
    assert.is(
      errCode(() => listBrowse(tree, '/', bad, null)),
      'INVALID_DEPTH',
      bad,
    );
  for (const ok of ['1', '2', '3', undefined]) assert.is(listBrowse(tree, '/', ok, null).path, '/');
});

test('the tree is immutable', () => {
  const tree = treeOf(inputs());
  const items = listBrowse(tree, '/live/test', '1', null).items;
  assert.throws(() => {
    (items as BrowseNode[]).push(items[0] as BrowseNode);
  });
  assert.throws(() => {
    (items[0] as { activate: { body: Record<string, unknown> } }).activate.body['id'] = 'x';
  });
});

test('5000-node listing is fast (timed, reported)', () => {
  const spec: Spec = {};
  for (let i = 0; i < 5000; i++) spec[`clip ${String(i).padStart(4, '0')}.mp4`] = 'video';
  const nested: Spec = {};
  for (let f = 0; f < 50; f++) {
    const sub: Spec = {};
    for (let i = 0; i < 100; i++) sub[`c${i}.mp4`] = 'video';
    nested[`Folder ${f}`] = sub;
  }
  const t0 = performance.now();
  const flat = treeOf({ sources: [], presets: [], live: [], files: freezeSnapshot(1, [root('/flat', 0, spec)]) });
  const tree2 = treeOf({ sources: [], presets: [], live: [], files: freezeSnapshot(1, [root('/nested', 0, nested)]) });
  const build = performance.now() - t0;
  const time = (fn: () => unknown): number => {
    const s = performance.now();
    fn();
    return performance.now() - s;
  };
  const first = time(() => JSON.stringify(listBrowse(flat, '/files', '1', null)));
  const cold = time(() => listBrowseJson(flat, '/files', '1', 'none'));
  const warm = time(() => listBrowseJson(flat, '/files', '1', 'none'));
  const deep = time(() => JSON.stringify(listBrowse(tree2, '/', '3', null)));
  assert.is(listBrowse(flat, '/files', '1', null).count, 5000);
  assert.is(listBrowse(tree2, '/files', '2', null).items.length, 50);
  console.log(
    `  5000 nodes: build ${build.toFixed(1)} ms (two trees); depth 1 list+stringify ${first.toFixed(2)} ms; memoised JSON cold ${cold.toFixed(2)} ms, warm ${warm.toFixed(3)} ms; 50×100 nested depth 3 from / ${deep.toFixed(2)} ms`,
  );
});

test.run();
