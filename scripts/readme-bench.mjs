#!/usr/bin/env node
// Copies the latest bench/results/*.md tables into README.md between their markers, so the README shows what was measured.
import { readFile, writeFile } from 'node:fs/promises';

const root = new URL('..', import.meta.url);

/** Tables in the README's own compact form (results files may come padded): cells trimmed, separators `---`. */
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
const readmeUrl = new URL('README.md', root);
let readme = await readFile(readmeUrl, 'utf8');
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
  'audio-cost',
  'isf-dialect',
  'isf-soak',
  'modulation',
  'show',
  'show-soak',
  'transport-seek',
  'dmx',
  'midi',
  'layers',
  'layers-engine',
  'scenes',
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
  if (!re.test(readme)) throw new Error(`README.md lacks ${start} … ${end}`);
  readme = readme.replace(re, `${start}\n${table}\n${end}`);
}
await writeFile(readmeUrl, readme);
process.stdout.write('README.md benchmark tables updated\n');
