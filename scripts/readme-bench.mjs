#!/usr/bin/env node
// Copies the latest bench/results/*.md tables into docs/performance.md between their markers, so the docs show what was
// measured.
import { readFile, writeFile } from 'node:fs/promises';

const root = new URL('..', import.meta.url);

/** Tables in the docs' own compact form (results files may come padded): cells trimmed, separators `---`. */
const compact = (md) =>
  md
    .split('\n')
    .map((line) => {
      if (!line.startsWith('|') || !line.endsWith('|')) return line;
      const cells = line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c)))
        return `|${cells.map((c) => `${c.startsWith(':') ? ':' : ''}---${c.endsWith(':') && c.length > 1 ? ':' : ''}`).join('|')}|`;
      return `|${cells.map((c) => (c ? ` ${c} ` : '  ')).join('|')}|`;
    })
    .join('\n');
const pageUrl = new URL('docs/performance.md', root);
let page = await readFile(pageUrl, 'utf8');
for (const name of [
  'http',
  'micro',
  'render',
  'browse',
  'activation',
  'thumbnails',
  'encode',
  'soak',
  'fuse',
  'mix',
  'params',
  'outputs',
  'events',
  'events-soak',
  'osc-flood',
  'bpm',
  'tempo-lock',
  'tempo-lamp',
  'audio-cost',
  'isf-dialect',
  'isf-soak',
  'modulation',
  'show',
  'show-soak',
  'show-link',
  'timecode',
  'pixelmap',
  'output-map',
  'transport-seek',
  'dmx',
  'midi',
  'layers',
  'layers-engine',
  'scenes',
  'clip-start',
  'clip-start-baseline',
  'companion',
]) {
  let table;
  try {
    table = compact((await readFile(new URL(`bench/results/${name}.md`, root), 'utf8')).trim());
  } catch {
    continue;
  }
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  if (!re.test(page)) throw new Error(`docs/performance.md lacks ${start} … ${end}`);
  page = page.replace(re, `${start}\n${table}\n${end}`);
}
await writeFile(pageUrl, page);
process.stdout.write('docs/performance.md benchmark tables updated\n');
