// Which Host headers vjd answers for (src/http/host-policy.ts), without a server: a value remembered as allowed
// stops being allowed once the configuration no longer names it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HostPolicy } from '../../src/http/host-policy.js';

test('loopback, the bound host and listed names pass; other names and malformed values do not', () => {
  const p = new HostPolicy();
  p.configure('192.0.2.10', ['desk.example']);
  for (const h of ['', '127.0.0.1:8080', 'localhost', 'LOCALHOST.:1', '[::1]:80', '192.0.2.10:8080', 'Desk.Example'])
    assert.ok(p.allows(h), h);
  for (const h of ['evil.example', '127.0.0.1:abc', '[::1', 'x'.repeat(301)]) assert.not.ok(p.allows(h), h);
});

test('a repeated value gives the same answer, and a name taken out of the configuration is refused again', () => {
  const p = new HostPolicy();
  p.configure('127.0.0.1', ['desk.example']);
  for (let i = 0; i < 3; i++) assert.ok(p.allows('desk.example:8080'));
  for (let i = 0; i < 3; i++) assert.not.ok(p.allows('evil.example:8080', 0));
  p.configure('127.0.0.1', []);
  assert.not.ok(p.allows('desk.example:8080'));
  assert.ok(p.allows('127.0.0.1:8080'));
});

test('more distinct allowed values than it remembers still pass', () => {
  const p = new HostPolicy();
  for (let port = 1; port <= 40; port++) assert.ok(p.allows(`127.0.0.1:${port}`));
  for (let port = 1; port <= 40; port++) assert.ok(p.allows(`127.0.0.1:${port}`));
});

test.run();
