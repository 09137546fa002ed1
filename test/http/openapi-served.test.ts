// The served OpenAPI description: passes redocly lint, and the error registry, the description and the
// error table of docs/api.md list the same codes with the same statuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { startServer, req, ROOT, tempDir, type TestServer } from '../helpers/server.js';
import { ERRORS, ERROR_CODES } from '../../src/errors.js';

let s: TestServer;
let yamlText = '';

test.before(async () => {
  s = await startServer();
  const r = await req('GET', `${s.base}/api/v1/openapi.yaml`);
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-type']), /^application\/yaml/);
  yamlText = r.text;
});
test.after(async () => {
  await s.cleanup();
});

test('openapi.yaml is OpenAPI 3.0 and passes redocly lint with no errors', async () => {
  const doc = YAML.parse(yamlText);
  assert.match(doc.openapi, /^3\.0\./);
  assert.is(doc.info.version, (await req('GET', `${s.base}/api/v1/status`)).json().version);
  const dir = await tempDir();
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, yamlText);
  const result = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      join(ROOT, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=stylish'],
      { cwd: ROOT, timeout: 120000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
  await rm(dir, { recursive: true, force: true });
  assert.is(result.code, 0, result.out);
  assert.not.match(result.out, /\berror\b.*\d+ errors?/i);
});

test('every served route is described, with security matching its auth', async () => {
  const doc = YAML.parse(yamlText);
  const paths = Object.keys(doc.paths).sort();
  assert.equal(paths, [
    '/api/v1/actions',
    '/api/v1/actions/{id}',
    '/api/v1/audio',
    '/api/v1/audio/inputs',
    '/api/v1/audio/inputs/add',
    '/api/v1/audio/inputs/edit',
    '/api/v1/audio/inputs/remove',
    '/api/v1/audio/levels',
    '/api/v1/audio/select',
    '/api/v1/audio/settings',
    '/api/v1/browse',
    '/api/v1/capabilities',
    '/api/v1/catalog/effects/{id}/thumbnail',
    '/api/v1/catalog/errors',
    '/api/v1/cues',
    '/api/v1/cues/add',
    '/api/v1/cues/arm',
    '/api/v1/cues/back',
    '/api/v1/cues/delete',
    '/api/v1/cues/edit',
    '/api/v1/cues/go',
    '/api/v1/cues/jump',
    '/api/v1/cues/move',
    '/api/v1/dmx',
    '/api/v1/dmx/personality',
    '/api/v1/docs',
    '/api/v1/effects',
    '/api/v1/effects/add',
    '/api/v1/effects/available',
    '/api/v1/effects/current',
    '/api/v1/effects/enabled',
    '/api/v1/effects/modulate',
    '/api/v1/effects/move',
    '/api/v1/effects/params',
    '/api/v1/effects/remove',
    '/api/v1/effects/reset',
    '/api/v1/effects/toggle',
    '/api/v1/effects/{index}',
    '/api/v1/events',
    '/api/v1/global',
    '/api/v1/global/blackout',
    '/api/v1/global/dimmer',
    '/api/v1/global/modulate',
    '/api/v1/inputs/file/select',
    '/api/v1/inputs/live/select',
    '/api/v1/layers',
    '/api/v1/layers/add',
    '/api/v1/layers/blend',
    '/api/v1/layers/move',
    '/api/v1/layers/mute',
    '/api/v1/layers/name',
    '/api/v1/layers/opacity',
    '/api/v1/layers/remove',
    '/api/v1/layers/select',
    '/api/v1/layers/solo',
    '/api/v1/layers/{layer}/effects',
    '/api/v1/layers/{layer}/effects/add',
    '/api/v1/layers/{layer}/effects/current',
    '/api/v1/layers/{layer}/effects/enabled',
    '/api/v1/layers/{layer}/effects/move',
    '/api/v1/layers/{layer}/effects/params',
    '/api/v1/layers/{layer}/effects/remove',
    '/api/v1/layers/{layer}/effects/reset',
    '/api/v1/layers/{layer}/effects/toggle',
    '/api/v1/layers/{layer}/effects/{index}',
    '/api/v1/layers/{layer}/sources/current',
    '/api/v1/layers/{layer}/sources/select',
    '/api/v1/midi',
    '/api/v1/midi/learn',
    '/api/v1/mix',
    '/api/v1/mix/cue',
    '/api/v1/mix/modulate',
    '/api/v1/mix/position',
    '/api/v1/mix/take',
    '/api/v1/mix/transition',
    '/api/v1/modulation',
    '/api/v1/modulation/freeze',
    '/api/v1/openapi.yaml',
    '/api/v1/osc',
    '/api/v1/output/preview.mjpeg',
    '/api/v1/outputs',
    '/api/v1/outputs/add',
    '/api/v1/outputs/enabled',
    '/api/v1/outputs/remove',
    '/api/v1/outputs/{id}/map',
    '/api/v1/palettes',
    '/api/v1/palettes/current',
    '/api/v1/palettes/next',
    '/api/v1/palettes/select',
    '/api/v1/pixelmap',
    '/api/v1/pixelmap/fixtures/add',
    '/api/v1/pixelmap/fixtures/edit',
    '/api/v1/pixelmap/fixtures/remove',
    '/api/v1/pixelmap/test',
    '/api/v1/presets/save',
    '/api/v1/recordings',
    '/api/v1/recordings/{file}',
    '/api/v1/scenes',
    '/api/v1/scenes/delete',
    '/api/v1/scenes/recall',
    '/api/v1/scenes/save',
    '/api/v1/show',
    '/api/v1/show/scheduled',
    '/api/v1/show/scheduled/{id}/cancel',
    '/api/v1/sources',
    '/api/v1/sources/current',
    '/api/v1/sources/current/params',
    '/api/v1/sources/modulate',
    '/api/v1/sources/params',
    '/api/v1/sources/select',
    '/api/v1/sources/warm',
    '/api/v1/status',
    '/api/v1/tempo',
    '/api/v1/tempo/bpm',
    '/api/v1/tempo/multiply',
    '/api/v1/tempo/nudge',
    '/api/v1/tempo/range',
    '/api/v1/tempo/resync',
    '/api/v1/tempo/source',
    '/api/v1/tempo/tap',
    '/api/v1/thumbnails/current',
    '/api/v1/thumbnails/layer/{id}',
    '/api/v1/thumbnails/live/{id}',
    '/api/v1/thumbnails/palette/{id}',
    '/api/v1/thumbnails/scene/{id}',
    '/api/v1/thumbnails/source/{id}',
    '/api/v1/timecode',
    '/api/v1/transitions',
    '/api/v1/transport',
    '/api/v1/transport/chase',
    '/api/v1/transport/cues',
    '/api/v1/transport/cues/remove',
    '/api/v1/transport/end',
    '/api/v1/transport/inout',
    '/api/v1/transport/loop',
    '/api/v1/transport/pause',
    '/api/v1/transport/play',
    '/api/v1/transport/restart',
    '/api/v1/transport/seek',
    '/api/v1/transport/speed',
    '/api/v1/transport/toggle',
    '/media/thumbnails/{id}',
  ]);
  assert.not.ok(
    paths.some((p) => p.includes('_test')),
    'test hooks stay out of the description',
  );
  assert.equal(doc.paths['/api/v1/status'].get.security, []);
  assert.is(doc.paths['/api/v1/capabilities'].get.security, undefined, 'protected routes inherit the global security');
  assert.ok(doc.security.length >= 2);
});

test('registry, OpenAPI and docs/api.md list the same error codes and statuses', async () => {
  const doc = YAML.parse(yamlText);
  const registry = ERROR_CODES.map((c) => `${ERRORS[c].status} ${c}`).sort();
  const enumCodes = [...doc.components.schemas.ErrorBody.properties.code.enum].sort();
  assert.equal(enumCodes, [...ERROR_CODES].sort(), 'ErrorBody.code enum');
  const responses = Object.entries<any>(doc.components.responses)
    .map(([code, r]) => `${String(r.description).split(' ')[0]} ${code}`)
    .sort();
  assert.equal(responses, registry, 'components.responses');
  const docs = await readFile(join(ROOT, 'docs', 'api.md'), 'utf8');
  const table = docs.split('<!-- errors:start -->')[1]?.split('<!-- errors:end -->')[0] ?? '';
  const rows = [...table.matchAll(/^\|\s*(\d{3})\s*\|\s*([A-Z_]+)\s*\|/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
  assert.equal(rows, registry, 'docs/api.md error table');
});

test.run();
