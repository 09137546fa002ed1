// When uWebSockets.js falls back to its pure-JS shim, vjd still serves, logs an error and says so in /status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, req } from '../helpers/server.js';

test('fallback engine: native false in /status, error logged, routes still work', async () => {
  const s = await startServer({ env: { UWS_USE_FALLBACK: '1' } });
  try {
    const st = (await req('GET', `${s.base}/api/v1/status?probe=1`)).json();
    assert.is(st.httpEngine.native, false);
    assert.match(s.logs(), /"level":"error".*native binary did not load/);
    const r = await req('POST', `${s.base}/api/v1/global/dimmer`, { body: { value: 0.4 } });
    assert.is(r.status, 200);
    assert.equal(r.json(), { success: true, blackout: false, dimmer: 0.4 });
    const bad = await req('POST', `${s.base}/api/v1/global/dimmer`, { body: '{"value":' });
    assert.is(bad.status, 400);
    const missing = await req('GET', `${s.base}/api/v1/nope?x=1`);
    assert.is(missing.status, 404);
  } finally {
    await s.cleanup();
  }
});

test.run();
