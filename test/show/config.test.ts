// Config `show`: absent or null is no show; a valid one loads with its defaults and its files resolved beside the
// config file; a bad value stops the load naming the key inside `show` and the file, never echoing a secret.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';

let dir = '';
let n = 0;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vjd-show-config-'));
});
test.after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(show: unknown) {
  const file = join(dir, `c${n++}.json`);
  await writeFile(file, JSON.stringify(show === undefined ? {} : { show }));
  return { file, loaded: () => loadConfig({ config: file }, {}, { resolveHost: false }) };
}

async function refused(show: unknown): Promise<ConfigError> {
  const { loaded, file } = await load(show);
  try {
    await loaded();
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.equal((err as ConfigError).file, file);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const valid = (over: Record<string, unknown> = {}) => ({ name: 'gig', box: 'a', broker: { url: 'mqtt://127.0.0.1:1883' }, ...over });

test('no show: absent or null', async () => {
  assert.equal((await (await load(undefined)).loaded()).config.show, null);
  const loaded = await (await load(null)).loaded();
  assert.equal([loaded.config.show, loaded.paths.show], [null, null]);
});

test('a show loads with its defaults and files resolved beside the config file', async () => {
  const loaded = await (
    await load(
      valid({ broker: { url: 'mqtts://b.lan:8883', username: 'u', passwordFile: 'pw', tls: { ca: '/etc/ca.pem' } }, groups: ['stage'] }),
    )
  ).loaded();
  assert.equal(loaded.config.show, {
    name: 'gig',
    box: 'a',
    broker: {
      url: 'mqtts://b.lan:8883',
      username: 'u',
      passwordFile: 'pw',
      tls: { ca: '/etc/ca.pem', cert: null, key: null, rejectUnauthorized: true },
    },
    groups: ['stage'],
    leader: false,
  });
  assert.equal(loaded.paths.show, { passwordFile: join(dir, 'pw'), ca: '/etc/ca.pem', cert: null, key: null });
});

test('bad values name their key inside show', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [valid({ name: 'a/b' }), 'show.name', /show\.name must be a show name/],
    [valid({ box: 'x'.repeat(65) }), 'show.box', /show\.box must be/],
    [valid({ groups: ['ok', 'no+'] }), 'show.groups[1]', /show\.groups\[1\] must be a group name/],
    [valid({ box: 'all' }), 'show.box', /"all"/],
    [valid({ groups: ['all'] }), 'show.groups[0]', /"all"/],
    [valid({ groups: ['s', 's'] }), 'show.groups[1]', /listed twice/],
    [valid({ broker: { url: 'http://b.lan' } }), 'show.broker.url', /show\.broker\.url must be a broker URL/],
    [valid({ broker: { url: 'mqtt://b.lan', passwordFile: 'pw' } }), 'show.broker.passwordFile', /needs show\.broker\.username/],
    [valid({ broker: { url: 'mqtt://b.lan', port: 1 } }), 'show.broker.port', /unknown key "show\.broker\.port"/],
    [{ name: 'gig', box: 'a' }, 'show.broker', /show\.broker is required/],
    [42, 'show', /show must be null \(no show/],
  ];
  for (const [show, key, message] of cases) {
    const err = await refused(show);
    assert.equal(err.key, key, JSON.stringify(show));
    assert.match(err.message, message);
  }
});

test('a user or password in the URL is refused without echoing it', async () => {
  const err = await refused(valid({ broker: { url: 'mqtt://u:s3cret-pw@b.lan' } }));
  assert.equal(err.key, 'show.broker.url');
  assert.not.ok(err.message.includes('s3cret-pw'));
});

test.run();
