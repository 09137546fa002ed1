// The packed first lines of an answer (src/http/reply-head.ts) are the bytes uWS writes for one call per line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CORS_HEADERS } from '../../src/http/cors.js';
import { replyHead } from '../../src/http/reply-head.js';

const lines = (status: string, extra: string[]): string => [status, ...CORS_HEADERS.map(([k, v]) => `${k}: ${v}`), ...extra].join('\r\n');

test('status line, CORS, then the JSON type and no-store as asked', () => {
  assert.is(
    replyHead(200, true, true).toString('latin1'),
    lines('200 OK', ['Content-Type: application/json; charset=utf-8', 'Cache-Control: no-store']),
  );
  assert.is(replyHead(304, false, true).toString('latin1'), lines('304 Not Modified', ['Cache-Control: no-store']));
  assert.is(replyHead(404, true, false).toString('latin1'), lines('404 Not Found', ['Content-Type: application/json; charset=utf-8']));
  assert.is(replyHead(204, false, false).toString('latin1'), lines('204 No Content', []));
  assert.is(replyHead(599, false, false).toString('latin1'), lines('599 Status', []));
});

test('the same head is reused', () => {
  assert.is(replyHead(200, true, true), replyHead(200, true, true));
});

test.run();
