// test-lane: alone (loads the box itself and reads thread priorities)
// Control surfaces never wait on the picture: in a running server the main thread keeps nice 0 while the render
// worker's thread and the encode pool's threads run below it (read from /proc, as the scheduler sees them).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdir, readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { startServer, req, waitUntil } from '../helpers/server.js';
import { THREAD_NICE } from '../../src/shared/thread-priority.js';

/** Each thread of `pid`: its name and nice value (stat field 19, after the parenthesised name). */
async function threads(pid: number): Promise<Array<{ tid: number; name: string; nice: number }>> {
  const out: Array<{ tid: number; name: string; nice: number }> = [];
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    try {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(tid), name, nice: Number(fields[16]) });
    } catch {
      // the thread ended while we looked
    }
  }
  return out;
}

/** Whether a thread may lower its own priority here (procfs with thread-self, setpriority on a thread id). */
async function threadsCanLower(): Promise<boolean> {
  const probe = new Worker(
    `const { parentPort } = require('node:worker_threads');
     try {
       const p = require('node:fs').readlinkSync('/proc/thread-self');
       require('node:os').setPriority(Number(p.slice(p.lastIndexOf('/') + 1)), 1);
       parentPort.postMessage(true);
     } catch { parentPort.postMessage(false); }`,
    { eval: true },
  );
  const ok = await new Promise<boolean>((resolve) => probe.once('message', resolve).once('error', () => resolve(false)));
  await probe.terminate();
  return ok;
}

const canLower = await threadsCanLower();
if (!canLower) console.log('not run: thread priorities (this system lets no thread lower its own priority)');

(canLower ? test : test.skip)('main thread at 0; the render thread and the encode pool threads below it', async () => {
  const s = await startServer({ config: { live: { test: [], streams: [], v4l2: { enabled: false } } } });
  try {
    const pid = s.proc.pid!;
    // A thumbnail makes the encode pool start its threads.
    const thumb = await req('GET', `${s.base}/api/v1/thumbnails/current?size=64`, { timeoutMs: 15000 });
    assert.ok(thumb.status === 200 || thumb.status === 503, thumb.text.slice(0, 200));
    let seen: Array<{ tid: number; name: string; nice: number }> = [];
    await waitUntil(
      async () => {
        seen = await threads(pid);
        const nices = new Set(seen.map((t) => t.nice));
        return nices.has(THREAD_NICE.render) && nices.has(THREAD_NICE.encodePool);
      },
      15000,
      200,
    ).catch(() => {
      throw new Error(`threads: ${JSON.stringify(seen)}`);
    });
    assert.is(seen.find((t) => t.tid === pid)?.nice, 0, 'the main thread keeps nice 0');
    // Threads the render thread starts (the software rasterizer's) inherit its priority, so there may be several.
    assert.ok(
      seen.some((t) => t.nice === THREAD_NICE.render),
      'the render thread',
    );
  } finally {
    await s.cleanup();
  }
});

test.run();
