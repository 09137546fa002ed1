// Tests for config loading: precedence, validation messages that name key and source, path resolution.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isIP } from 'node:net';
import { ConfigError, describeOrigin, loadConfig, MAX_CONFIG_BYTES } from '../../src/config/load.js';
import { DEFAULT_CONFIG } from '../../src/config/schema.js';

let root = '';
let counter = 0;

test.before(async () => {
  root = await mkdtemp(join(tmpdir(), 'vjd-config-'));
});

test.after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes a config file into its own directory and returns its path. */
async function configFile(content: unknown): Promise<string> {
  const dir = join(root, `c${counter++}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'vjd.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

async function loadError(flags: Parameters<typeof loadConfig>[0], env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  try {
    await loadConfig(flags, env);
  } catch (err) {
    assert.instance(err, ConfigError);
    return err as ConfigError;
  }
  assert.unreachable('expected a ConfigError');
  throw new Error('unreachable');
}

test('no file: embedded defaults, paths under ./data', async () => {
  const loaded = await loadConfig({}, {});
  assert.is(loaded.file, null);
  assert.equal(loaded.config, DEFAULT_CONFIG);
  assert.equal(loaded.origin, { 'server.host': 'default', 'server.port': 'default', 'server.apiKey': 'default', dataDir: 'default' });
  const dataDir = resolve(process.cwd(), 'data');
  assert.is(loaded.paths.dataDir, dataDir);
  assert.is(loaded.paths.licenseFile, join(dataDir, 'license.json'));
  assert.equal(loaded.paths.mediaRoots, [join(dataDir, 'media')]);
  assert.is(loaded.paths.stateFile, join(dataDir, 'state.json'));
  assert.is(loaded.paths.runDir, join(dataDir, 'run'));
  assert.equal(loaded.paths.effectsDirs, []);
  assert.equal(loaded.config.live.test, [{ id: 'bars', name: 'Color Bars', pattern: 'smptehdbars' }]);
  assert.equal(loaded.config.live.streams, []);
});

test('loaded config is a copy: mutating it leaves the defaults alone', async () => {
  const loaded = await loadConfig({}, {});
  loaded.config.server.port = 9999;
  loaded.config.live.test.push({ id: 'x', name: 'x', pattern: 'testsrc2' });
  assert.is(DEFAULT_CONFIG.server.port, 8080);
  assert.is(DEFAULT_CONFIG.live.test.length, 1);
});

test('file values override defaults, missing keys keep defaults', async () => {
  const file = await configFile({
    server: { port: 9000, apiKey: 'file-key' },
    render: { fps: 60 },
    live: { streams: [{ id: 'stage', name: 'Stage Cam', url: 'tcp://127.0.0.1:5000?listen' }], v4l2: { enabled: false } },
  });
  const loaded = await loadConfig({ config: file }, {});
  assert.is(loaded.file, file);
  assert.is(loaded.config.server.port, 9000);
  assert.is(loaded.config.server.host, '127.0.0.1');
  assert.is(loaded.config.server.apiKey, 'file-key');
  assert.is(loaded.config.server.enabled, true);
  assert.equal(loaded.config.render, {
    width: 1280,
    height: 720,
    fps: 60,
    fuse: true,
    scale: 1,
    minScale: 0.5,
    readback: 'auto',
    maxLayers: 8,
  });
  assert.is(loaded.config.live.streams.length, 1);
  assert.equal(loaded.config.live.v4l2, { enabled: false, devDir: '/dev', sysfsDir: '/sys/class/video4linux' });
  assert.is(loaded.origin['server.port'], 'file');
  assert.is(loaded.origin['server.host'], 'default');
});

test('VJD_CONFIG names the file when no flag does', async () => {
  const file = await configFile({ server: { host: '0.0.0.0' } });
  const loaded = await loadConfig({}, { VJD_CONFIG: file });
  assert.is(loaded.file, file);
  assert.is(loaded.config.server.host, '0.0.0.0');
});

test('env overrides the file', async () => {
  const file = await configFile({ server: { host: '0.0.0.0', port: 9000, apiKey: 'file-key' }, dataDir: '/srv/a' });
  const loaded = await loadConfig({ config: file }, { VJD_HOST: '::1', VJD_PORT: '9100', VJD_API_KEY: 'env-key', VJD_DATA_DIR: '/srv/b' });
  assert.is(loaded.config.server.host, '::1');
  assert.is(loaded.config.server.port, 9100);
  assert.is(loaded.config.server.apiKey, 'env-key');
  assert.is(loaded.paths.dataDir, '/srv/b');
  assert.equal(loaded.origin, { 'server.host': 'env', 'server.port': 'env', 'server.apiKey': 'env', dataDir: 'env' });
});

test('flags override env', async () => {
  const file = await configFile({ server: { port: 9000 } });
  const loaded = await loadConfig(
    { config: file, host: 'localhost', port: 9200, apiKey: 'flag-key', dataDir: 'rel-data' },
    { VJD_HOST: '::1', VJD_PORT: '9100', VJD_API_KEY: 'env-key', VJD_DATA_DIR: '/srv/b' },
  );
  assert.is(loaded.config.server.host, 'localhost');
  assert.is(loaded.config.server.port, 9200);
  assert.is(loaded.config.server.apiKey, 'flag-key');
  // A data dir from a flag is relative to where vjd was started, not to the config file.
  assert.is(loaded.paths.dataDir, resolve(process.cwd(), 'rel-data'));
  assert.equal(loaded.origin, { 'server.host': 'flag', 'server.port': 'flag', 'server.apiKey': 'flag', dataDir: 'flag' });
  const fromString = await loadConfig({ port: '9300' }, { VJD_PORT: '9100' });
  assert.is(fromString.config.server.port, 9300);
});

test('port out of range in the file names server.port and the file', async () => {
  const file = await configFile({ server: { port: 80 } });
  const err = await loadError({ config: file });
  assert.is(err.key, 'server.port');
  assert.is(err.file, file);
  assert.is(err.message, `config error in ${file}: server.port must be an integer from 1024 to 65535 (got 80)`);
});

test('port out of range from env names VJD_PORT', async () => {
  const err = await loadError({}, { VJD_PORT: '70000' });
  assert.is(err.key, 'server.port');
  assert.is(err.file, null);
  assert.ok(err.message.startsWith('config error in VJD_PORT: server.port must be an integer from 1024 to 65535'), err.message);
});

test('port out of range from a flag names --port', async () => {
  const err = await loadError({ port: 1023 }, { VJD_PORT: '8081' });
  assert.ok(err.message.startsWith('config error in --port: server.port'), err.message);
  const err2 = await loadError({ port: '65536' });
  assert.match(err2.message, /--port/);
});

test('non-integer port is refused from file, env and flag', async () => {
  const file = await configFile({ server: { port: 8080.5 } });
  assert.match((await loadError({ config: file })).message, /server\.port must be an integer/);
  const fileString = await configFile({ server: { port: '8080' } });
  assert.match((await loadError({ config: fileString })).message, /server\.port must be an integer .*\(got "8080"\)/);
  for (const bad of ['80a', '8080.0', ' 8080', '-9000', '1e4', '0x1f90']) {
    const err = await loadError({}, { VJD_PORT: bad });
    assert.match(err.message, /^config error in VJD_PORT: server\.port must be/, bad);
  }
  assert.match((await loadError({ port: 9000.5 })).message, /^config error in --port/);
});

test('unknown top-level key is named', async () => {
  const file = await configFile({ sever: { port: 9000 } });
  const err = await loadError({ config: file });
  assert.is(err.key, 'sever');
  assert.ok(err.message.startsWith(`config error in ${file}: unknown key "sever"`), err.message);
  assert.match(err.message, /did you mean "server"/);
});

test('unknown nested keys are named by dotted path', async () => {
  const file = await configFile({ server: { prot: 9000 } });
  const err = await loadError({ config: file });
  assert.is(err.key, 'server.prot');
  assert.ok(err.message.startsWith(`config error in ${file}: unknown key "server.prot"`), err.message);

  const deep = await configFile({ live: { v4l2: { foo: 1 } } });
  const err2 = await loadError({ config: deep });
  assert.is(err2.key, 'live.v4l2.foo');
  assert.is(err2.message, `config error in ${deep}: unknown key "live.v4l2.foo"`);

  const inArray = await configFile({ live: { test: [{ id: 'a', name: 'A', pattern: 'testsrc2', colour: 'red' }] } });
  assert.is((await loadError({ config: inArray })).key, 'live.test[0].colour');
});

test('wrong types and limits are named with the expectation', async () => {
  const cases: [unknown, string, RegExp][] = [
    [{ server: { enabled: 'yes' } }, 'server.enabled', /server\.enabled must be true or false \(got "yes"\)/],
    [{ server: 'x' }, 'server', /server must be an object/],
    [{ render: { height: 4321 } }, 'render.height', /from 16 to 4320/],
    [{ render: { fps: 0 } }, 'render.fps', /from 1 to 240/],
    [{ server: { host: '' } }, 'server.host', /1 to 255 characters/],
    [{ media: { roots: 'media' } }, 'media.roots', /a list of at most 64 paths/],
    [{ media: { roots: Array.from({ length: 65 }, (_, i) => `m${i}`) } }, 'media.roots', /got an array of 65 items/],
    [{ effects: { dirs: ['ok', ''] } }, 'effects.dirs[1]', /effects\.dirs\[1\] must be a path/],
    [{ license: { trustedKeys: ['not base64!'] } }, 'license.trustedKeys[0]', /base64/],
    [{ live: { test: [{ id: 'has space', name: 'x', pattern: 'testsrc2' }] } }, 'live.test[0].id', /A-Z a-z 0-9 _ -/],
    [{ live: { streams: [{ id: 'cam', name: 'Cam' }] } }, 'live.streams[0].url', /live\.streams\[0\]\.url is required/],
    [[], '', /must contain a JSON object/],
  ];
  for (const [content, key, pattern] of cases) {
    const file = await configFile(content);
    const err = await loadError({ config: file });
    assert.is(err.key, key, JSON.stringify(content).slice(0, 80));
    assert.match(err.message, pattern);
    assert.ok(err.message.startsWith(`config error in ${file}: `));
  }
});

test('duplicate live input ids are refused', async () => {
  const file = await configFile({
    live: { test: [{ id: 'bars', name: 'A', pattern: 'smptehdbars' }], streams: [{ id: 'BARS', name: 'B', url: 'udp://0.0.0.0:5000' }] },
  });
  const err = await loadError({ config: file });
  assert.is(err.key, 'live.streams[0].id');
  assert.match(err.message, /already used by live\.test\[0\]/);
});

test('a bad api key never appears in the error', async () => {
  const file = await configFile({ server: { apiKey: 'secret with spaces' } });
  const err = await loadError({ config: file });
  assert.is(err.key, 'server.apiKey');
  assert.not.match(err.message, /secret/);
  assert.match(err.message, /got a string of 18 characters/);
  const flagErr = await loadError({ apiKey: 'bad secret' });
  assert.match(flagErr.message, /^config error in --api-key: server\.apiKey/);
  assert.not.match(flagErr.message, /secret/);
});

test('invalid JSON names the file, line and column, not the content', async () => {
  const file = await configFile('{\n  "server": { "apiKey": "hunter2" },\n  "render": { "fps": tru }\n}\n');
  const err = await loadError({ config: file });
  assert.is(err.key, '');
  assert.is(err.file, file);
  assert.ok(err.message.startsWith(`config error in ${file}: invalid JSON at line 3 column 22: expected true`), err.message);
  assert.not.match(err.message, /hunter2/);

  const trailing = await configFile('{\n  "dataDir": "x",\n}');
  assert.match((await loadError({ config: trailing })).message, /line 3 column 1: expected a double-quoted property name/);
  const empty = await configFile('');
  assert.match((await loadError({ config: empty })).message, /invalid JSON at line 1 column 1: unexpected end of file/);
});

test('a byte-order mark is accepted', async () => {
  const file = await configFile('\ufeff{"server":{"port":9001}}');
  assert.is((await loadConfig({ config: file }, {})).config.server.port, 9001);
});

test('a named file that does not exist is an error', async () => {
  const missing = join(root, 'nope', 'vjd.json');
  const err = await loadError({ config: missing });
  assert.is(err.file, missing);
  assert.is(err.message, `config error in ${missing}: file not found (named by --config)`);
  assert.match((await loadError({}, { VJD_CONFIG: missing })).message, /named by VJD_CONFIG/);
  assert.match((await loadError({ config: root })).message, /is a directory/);
});

test('files over 1 MiB are refused', async () => {
  const file = await configFile(`{"dataDir": "x"}${' '.repeat(MAX_CONFIG_BYTES)}`);
  assert.match((await loadError({ config: file })).message, /larger than 1 MiB/);
});

test('relative paths in the file resolve against the file directory', async () => {
  const file = await configFile({
    dataDir: './state',
    media: { roots: ['clips', '/abs/media'] },
    effects: { dirs: ['../fx'] },
    license: { file: 'lic/license.json' },
  });
  const dir = resolve(file, '..');
  const loaded = await loadConfig({ config: file }, {});
  assert.is(loaded.paths.dataDir, join(dir, 'state'));
  assert.equal(loaded.paths.mediaRoots, [join(dir, 'clips'), '/abs/media']);
  assert.equal(loaded.paths.effectsDirs, [resolve(dir, '../fx')]);
  assert.is(loaded.paths.licenseFile, join(dir, 'lic/license.json'));
  assert.is(loaded.paths.stateFile, join(dir, 'state', 'state.json'));
  assert.is(loaded.config.dataDir, './state');
});

test('default media root and license path follow the data dir', async () => {
  const file = await configFile({ dataDir: '/srv/vjd' });
  const loaded = await loadConfig({ config: file }, {});
  assert.equal(loaded.paths.mediaRoots, ['/srv/vjd/media']);
  assert.is(loaded.paths.licenseFile, '/srv/vjd/license.json');
  assert.is(loaded.paths.runDir, '/srv/vjd/run');
  const fromEnv = await loadConfig({}, { VJD_DATA_DIR: 'envdata' });
  assert.is(fromEnv.paths.dataDir, resolve(process.cwd(), 'envdata'));
  assert.equal(fromEnv.paths.mediaRoots, [resolve(process.cwd(), 'envdata', 'media')]);
});

test('empty env values count as unset; empty VJD_API_KEY means no key', async () => {
  const loaded = await loadConfig({}, { VJD_API_KEY: '', VJD_HOST: '', VJD_PORT: '', VJD_CONFIG: '', VJD_DATA_DIR: '' });
  assert.is(loaded.config.server.apiKey, null);
  assert.is(loaded.origin['server.apiKey'], 'default');
  assert.is(loaded.config.server.port, 8080);
  assert.is(loaded.file, null);
});

test('describeOrigin reports whether a key is set, never the key', async () => {
  const withKey = await loadConfig({ apiKey: 'very-secret-key' }, {});
  const described = describeOrigin(withKey);
  assert.is(described.auth, 'api key set');
  assert.is(described.origin['server.apiKey'], 'flag');
  assert.not.ok(JSON.stringify(described).includes('very-secret-key'));
  assert.is(describeOrigin(await loadConfig({}, {})).auth, 'no api key');
});

test('server.host: an IP literal or a name that resolves; the error names the key and where the value came from', async () => {
  for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', '192.0.2.1']) {
    const loaded = await loadConfig({ config: await configFile({ server: { host } }) }, {});
    assert.is(loaded.bindAddress, host, 'a literal binds as written');
  }
  const named = await loadConfig({ config: await configFile({ server: { host: 'localhost' } }) }, {});
  assert.is(named.config.server.host, 'localhost');
  assert.ok(isIP(named.bindAddress) !== 0, `a name binds the address it resolved to (${named.bindAddress})`);

  const malformed: [string, RegExp][] = [
    ['not a host!', /not a valid host name/],
    ['1.2.3', /not a full IPv4 address/],
    ['[::1]', /without brackets/],
    ['a..b', /not a valid host name/],
    ['-lead.example', /not a valid host name/],
  ];
  for (const [host, reason] of malformed) {
    const file = await configFile({ server: { host } });
    const err = await loadError({ config: file });
    assert.is(err.key, 'server.host', host);
    assert.is(err.file, file);
    assert.ok(
      err.message.startsWith(`config error in ${file}: server.host must be an IP address or a host name (got ${JSON.stringify(host)}`),
      err.message,
    );
    assert.match(err.message, reason);
  }
  // The form is checked even when no lookup is wanted (vjd status, vjd license).
  try {
    await loadConfig({ config: await configFile({ server: { host: 'not a host!' } }) }, {}, { resolveHost: false });
    assert.unreachable('a malformed host is refused without a lookup too');
  } catch (err) {
    assert.instance(err, ConfigError);
  }

  // RFC 6761: .invalid never resolves.
  const file = await configFile({ server: { host: 'nohost.invalid' } });
  let err = await loadError({ config: file });
  assert.is(err.key, 'server.host');
  assert.is(err.file, file);
  assert.match(err.message, `config error in ${file}: server.host "nohost.invalid" does not resolve (`);
  const unresolvedButSkipped = await loadConfig({ config: file }, {}, { resolveHost: false });
  assert.is(unresolvedButSkipped.bindAddress, 'nohost.invalid');

  err = await loadError({ host: 'nohost.invalid' });
  assert.is(err.source, '--host');
  assert.is(err.file, null);
  assert.match(err.message, /^config error in --host: server\.host "nohost\.invalid" does not resolve/);
  err = await loadError({}, { VJD_HOST: 'not a host!' });
  assert.is(err.source, 'VJD_HOST');
  assert.match(err.message, /^config error in VJD_HOST: server\.host must be an IP address or a host name/);
  // A flag that wins over a bad file value does not hide the file's error, as with every other key.
  err = await loadError({ config: await configFile({ server: { host: 'not a host!' } }), host: '127.0.0.1' });
  assert.is(err.key, 'server.host');
});

test('osc: embedded default off on 127.0.0.1:7000; a non-loopback host with an API key needs osc.allowRemote', async () => {
  assert.equal(DEFAULT_CONFIG.osc, {
    enabled: false,
    host: '127.0.0.1',
    port: 7000,
    feedback: [],
    replyToSender: false,
    allowRemote: false,
  });
  assert.is(DEFAULT_CONFIG.server.maxEventClients, 256);
  const remote = { osc: { enabled: true, host: '0.0.0.0' } };
  const err = await loadError({ config: await configFile({ server: { apiKey: 'a-key-for-osc-tests' }, ...remote }) });
  assert.is(err.key, 'osc.allowRemote');
  assert.match(err.message, /no authentication/);
  // The key from the environment counts too; allowRemote, no key, or loopback are all accepted.
  assert.is((await loadError({ config: await configFile(remote) }, { VJD_API_KEY: 'a-key-for-osc-tests' })).key, 'osc.allowRemote');
  const ok = await loadConfig(
    { config: await configFile({ server: { apiKey: 'a-key-for-osc-tests' }, osc: { enabled: true, host: '0.0.0.0', allowRemote: true } }) },
    {},
  );
  assert.is(ok.config.osc.port, 7000);
  assert.is((await loadConfig({ config: await configFile(remote) }, {})).config.osc.host, '0.0.0.0');
  assert.is(
    (await loadConfig({ config: await configFile({ server: { apiKey: 'a-key-for-osc-tests' }, osc: { enabled: true } }) }, {})).config.osc
      .enabled,
    true,
  );
  assert.is((await loadError({ config: await configFile({ osc: { port: 0 } }) })).key, 'osc.port');
});

test("dmx: a universe the protocol cannot carry names dmx.universe and the file; an unset one is the protocol's first", async () => {
  const sacnZero = await configFile({ dmx: { protocol: 'sacn', universe: 0 } });
  const err = await loadError({ config: sacnZero });
  assert.equal([err.key, err.file], ['dmx.universe', sacnZero]);
  assert.is(
    err.message,
    `config error in ${sacnZero}: dmx.universe 0 is outside the sACN universes 1 to 63999, so no packet could match it`,
  );
  // Art-Net's port-address has 15 bits, whether the protocol is named or the default.
  for (const dmx of [{ protocol: 'artnet', universe: 32768 }, { universe: 40000 }]) {
    const file = await configFile({ dmx });
    const e = await loadError({ config: file });
    assert.equal([e.key, e.file], ['dmx.universe', file]);
    assert.match(e.message, /is outside the Art-Net universes 0 to 32767/);
  }
  const load = async (dmx: unknown) => (await loadConfig({ config: await configFile({ dmx }) }, {})).config.dmx;
  assert.is(DEFAULT_CONFIG.dmx.universe, 0);
  assert.is((await load({ protocol: 'sacn', enabled: true })).universe, 1);
  assert.is((await load({ protocol: 'artnet' })).universe, 0);
  assert.is((await load({ protocol: 'artnet', universe: 32767 })).universe, 32767);
  assert.is((await load({ protocol: 'sacn', universe: 63999 })).universe, 63999);
  assert.equal((await load({ personality: { layers: 2 } })).personality, { layers: 2, params: 4 });
});

test.run();
