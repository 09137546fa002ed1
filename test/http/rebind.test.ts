// Live listener changes are make-before-break: a bad host is refused like any bad config key, and the old
// address keeps serving until the new one is bound (port held elsewhere, address not yet free, a host move).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { join } from 'node:path';
import { startServer, req, runCli, freePort, tempDir, waitUntil, CLI, type TestServer, editConfig } from '../helpers/server.js';

/** GET /status on one address; null when nothing (or something that is not vjd) answers. */
async function statusAt(host: string, port: number): Promise<any | null> {
  try {
    const r = await req('GET', `http://${host}:${port}/api/v1/status`, { timeoutMs: 2000 });
    return r.status === 200 ? r.json() : null;
  } catch {
    return null;
  }
}

/** The server's JSON log lines whose message contains text. */
function logLines(s: TestServer, text: string): any[] {
  return s
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((l) => typeof l.msg === 'string' && l.msg.includes(text));
}

async function statusFile(s: TestServer): Promise<any> {
  return JSON.parse(await readFile(join(s.dataDir, 'run', 'status.json'), 'utf8'));
}

/** Another program holding an address: it accepts connections (and drains them) but speaks no HTTP. */
async function hold(host: string, port: number): Promise<Server> {
  const blocker = createServer((c) => c.on('error', () => undefined).resume());
  await new Promise<void>((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen({ host, port }, resolve);
  });
  return blocker;
}

const release = (blocker: Server): Promise<void> => new Promise((resolve) => blocker.close(() => resolve()));

async function bindable(host: string): Promise<boolean> {
  try {
    await release(await hold(host, 0));
    return true;
  } catch {
    return false;
  }
}

function runServe(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    // A config error exits at once; a server that starts anyway is stopped so the test can fail on its code.
    const t = setTimeout(() => p.kill('SIGKILL'), 20000);
    p.on('close', (code) => {
      clearTimeout(t);
      resolve({ code, out });
    });
  });
}

/** The message and fields of the fatal log line a refused start-up wrote. */
function fatalLine(out: string): any {
  const line = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .find((l) => l.level === 'fatal');
  assert.ok(line, `a fatal log line in:\n${out}`);
  return line;
}

test('start-up with an invalid host exits 2 and names the key and where the value came from', async () => {
  const dir = await tempDir();
  const file = join(dir, 'bad-host.json');
  await writeFile(file, JSON.stringify({ server: { host: 'not a host!' } }));
  let r = await runServe(['--config', file, '--data-dir', dir]);
  assert.is(r.code, 2, r.out);
  let fatal = fatalLine(r.out);
  assert.is(
    fatal.msg,
    `config error in ${file}: server.host must be an IP address or a host name (got "not a host!": not a valid host name)`,
  );
  assert.is(fatal.file, file);

  await writeFile(file, JSON.stringify({ server: { host: 'nohost.invalid' } }));
  r = await runServe(['--config', file, '--data-dir', dir]);
  assert.is(r.code, 2, r.out);
  fatal = fatalLine(r.out);
  assert.match(fatal.msg, `config error in ${file}: server.host "nohost.invalid" does not resolve`);
  assert.is(fatal.file, file);

  r = await runServe(['--host', 'not a host!', '--data-dir', dir]);
  assert.is(r.code, 2, r.out);
  assert.match(fatalLine(r.out).msg, /^config error in --host: server\.host must be an IP address or a host name/);

  r = await runServe(['--data-dir', dir], { VJD_HOST: 'nohost.invalid' });
  assert.is(r.code, 2, r.out);
  assert.match(fatalLine(r.out).msg, /^config error in VJD_HOST: server\.host "nohost\.invalid" does not resolve/);
});

test('an invalid or unbindable host edit: the old address keeps serving and says why', async () => {
  const s = await startServer();
  try {
    const before = await statusAt('127.0.0.1', s.port);
    assert.is(before.reason, null);

    // Not a host at all: refused as a config error naming the key and the file; nothing changes.
    await editConfig(s, (c) => (c.server.host = 'not a host!'));
    await s.waitForLog('keeping the last good config');
    const [rejected] = logLines(s, 'keeping the last good config');
    // (the log redacts every field called `key`, so the key is read from the message)
    assert.is(
      rejected.msg,
      `config error in ${s.configFile}: server.host must be an IP address or a host name (got "not a host!": not a valid host name); keeping the last good config`,
    );
    assert.is(rejected.file, s.configFile);
    let now = await statusAt('127.0.0.1', s.port);
    assert.ok(now, 'still answering on the old address');
    assert.is(now.status, 'Server Running');
    assert.is(now.reason, null);
    assert.equal(now.server, before.server);
    const file = await statusFile(s);
    assert.is(file.state, 'Server Running');
    assert.is(file.reason, null);
    assert.is(file.port, s.port);

    // A well-formed name that does not resolve is refused the same way.
    await editConfig(s, (c) => (c.server.host = 'nohost.invalid'));
    await waitUntil(() => logLines(s, 'keeping the last good config').length >= 2, 20000);
    const unresolved = logLines(s, 'keeping the last good config')[1];
    assert.match(unresolved.msg, `config error in ${s.configFile}: server.host "nohost.invalid" does not resolve`);
    now = await statusAt('127.0.0.1', s.port);
    assert.equal(now.server, before.server);

    // A valid address this machine does not have (TEST-NET-1): the bind keeps failing, the old one serves.
    if (!(await bindable('192.0.2.1'))) {
      await editConfig(s, (c) => (c.server.host = '192.0.2.1'));
      await waitUntil(async () => ((await statusAt('127.0.0.1', s.port))?.reason ?? '').includes(`192.0.2.1:${s.port}`), 20000);
      now = await statusAt('127.0.0.1', s.port);
      assert.is(now.status, 'Server Running');
      assert.is(now.server.host, '127.0.0.1');
      assert.match(now.reason, /address not available/);
      await editConfig(s, (c) => (c.server.host = '127.0.0.1'));
      await waitUntil(async () => (await statusAt('127.0.0.1', s.port))?.reason === null, 20000);
    }
  } finally {
    await s.cleanup();
  }
});

test('a port held by another socket: the old port keeps serving with the reason, then moves once it is free', async () => {
  const s = await startServer();
  const wanted = await freePort();
  const blocker = await hold('127.0.0.1', wanted);
  let held = true;
  try {
    await editConfig(s, (c) => (c.server.port = wanted));
    await waitUntil(async () => ((await statusAt('127.0.0.1', s.port))?.reason ?? '').includes(`127.0.0.1:${wanted}`), 20000);
    const st = await statusAt('127.0.0.1', s.port);
    assert.is(st.status, 'Server Running');
    assert.is(st.server.port, s.port, 'reports the address it still serves on');
    assert.match(st.reason, /address already in use/);
    assert.ok(st.reason.includes(`127.0.0.1:${s.port}`), 'and names the address still serving');

    // The status file and `vjd status` say the same.
    await waitUntil(async () => String((await statusFile(s)).reason).includes(`127.0.0.1:${wanted}`), 10000);
    const file = await statusFile(s);
    assert.is(file.state, 'Server Running');
    assert.is(file.port, s.port);
    const cli = await runCli(['status', '--json', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.is(cli.code, 0, cli.stderr);
    const shown = JSON.parse(cli.stdout);
    assert.is(shown.state, 'Server Running');
    assert.match(shown.reason, new RegExp(`127\\.0\\.0\\.1:${wanted}: address already in use`));
    const text = await runCli(['status', '--data-dir', s.dataDir, '--config', s.configFile!]);
    assert.match(text.stdout, /^Server Running \(cannot listen on /);

    await release(blocker);
    held = false;
    await waitUntil(async () => (await statusAt('127.0.0.1', wanted)) !== null, 30000);
    await waitUntil(async () => (await statusAt('127.0.0.1', s.port)) === null, 10000);
    const moved = await statusAt('127.0.0.1', wanted);
    assert.is(moved.server.port, wanted);
    assert.is(moved.reason, null);
    await waitUntil(async () => (await statusFile(s)).port === wanted && (await statusFile(s)).reason === null, 10000);
  } finally {
    if (held) await release(blocker);
    await s.cleanup();
  }
});

test('a host change moves without a gap: the old address answers until the new one does', async () => {
  if (!(await bindable('127.0.0.2'))) {
    console.log('skipped: 127.0.0.2 is not bindable on this machine');
    return;
  }
  const s = await startServer();
  const blocker = await hold('127.0.0.2', s.port);
  let held = true;
  /**
   * Polls the old address until it stops answering; each refusal must find the new address already
   * answering, since the old listener is closed only after the new one is up.
   */
  const pollMove = async (from: string, to: string): Promise<void> => {
    await waitUntil(
      async () => {
        if ((await statusAt(from, s.port)) !== null) return false;
        const next = await statusAt(to, s.port);
        assert.ok(next, `${from} stopped answering before ${to} answered`);
        return true;
      },
      30000,
      20,
    );
  };
  try {
    // The new address is taken for now: the old one must keep serving meanwhile.
    await editConfig(s, (c) => (c.server.host = '127.0.0.2'));
    await waitUntil(async () => ((await statusAt('127.0.0.1', s.port))?.reason ?? '').includes(`127.0.0.2:${s.port}`), 20000);
    const waiting = await statusAt('127.0.0.1', s.port);
    assert.is(waiting.status, 'Server Running');
    assert.is(waiting.server.host, '127.0.0.1');

    await release(blocker);
    held = false;
    await pollMove('127.0.0.1', '127.0.0.2');
    const moved = await statusAt('127.0.0.2', s.port);
    assert.is(moved.server.host, '127.0.0.2');
    assert.is(moved.reason, null);

    // A name resolves in the config load, and the listener moves to its address the same way.
    const local = (await lookup('localhost')).address;
    const localUrlHost = local.includes(':') ? `[${local}]` : local;
    await editConfig(s, (c) => (c.server.host = 'localhost'));
    await pollMove('127.0.0.2', localUrlHost);
    const named = await statusAt(localUrlHost, s.port);
    assert.is(named.server.host, 'localhost');
    assert.is(named.reason, null);

    // The wildcard on the same port contends with the old socket in the kernel: that one move closes first,
    // and must not wait for ever on a port only its own old socket holds.
    await editConfig(s, (c) => (c.server.host = '0.0.0.0'));
    await waitUntil(async () => (await statusAt('127.0.0.1', s.port))?.server.host === '0.0.0.0', 30000);
    assert.is((await statusAt('127.0.0.1', s.port)).reason, null);
  } finally {
    if (held) await release(blocker);
    await s.cleanup();
  }
});

test.run();
