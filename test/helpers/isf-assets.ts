// Shared check of a built-in ISF folder: every file parses as the right kind, carries the header fields vjd's
// built-ins promise (NAME, DESCRIPTION, CATEGORIES, CREDIT, ISFVSN, ranges) and is listed in the folder README.
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIsf } from '../../src/catalog/isf-parse.js';

export async function checkIsfFolder(dir: string, kind: 'effect' | 'generator', minCount: number): Promise<void> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.fs'));
  assert.ok(files.length >= minCount, `only ${files.length} files in ${dir}`);
  const readme = await readFile(join(dir, 'README.md'), 'utf8');
  for (const f of files) {
    assert.match(f, /^[a-z0-9_]+\.fs$/, `${f}: file name must be the lower-case type`);
    const text = await readFile(join(dir, f), 'utf8');
    const desc = parseIsf(text, { file: `builtin:${f}`, fileName: f });
    assert.is(desc.kind, kind, `${f} must parse as an ${kind}`);
    if (kind === 'generator')
      assert.not.ok(
        desc.inputs.some((i) => i.type === 'image'),
        `${f}: generators take no images`,
      );
    const header = JSON.parse(text.slice(text.indexOf('/*') + 2, text.indexOf('*/'))) as Record<string, unknown>;
    assert.type(header.NAME, 'string', `${f}: NAME`);
    assert.ok(String(header.DESCRIPTION ?? '').length > 10, `${f}: DESCRIPTION`);
    assert.ok(Array.isArray(header.CATEGORIES) && header.CATEGORIES.length > 0, `${f}: CATEGORIES`);
    assert.is(header.CREDIT, 'vjd', `${f}: CREDIT`);
    assert.is(header.ISFVSN, '2', `${f}: ISFVSN`);
    for (const i of desc.inputs) {
      if (i.type === 'float') assert.ok(i.min !== undefined && i.max !== undefined, `${f}: ${i.name} needs MIN and MAX`);
      if (i.type === 'long') assert.ok(i.values && i.labels, `${f}: ${i.name} needs VALUES and LABELS`);
    }
    assert.ok(readme.includes(`\`${f}\``), `${f} is missing from ${join(dir, 'README.md')}`);
  }
}
