// Test-only routes, served only when the process runs with VJD_TEST_HOOKS=1 (never in a production config):
// stalling the render worker proves CHAIN_BUSY semantics, failing frames drives context recovery, slow frames
// prove previews still get render time, sampling output pixels proves what is on screen, killing the ingest worker
// proves its supervision, and so does killing the audio worker; the audio probe gives the cost bench the threads
// whose CPU time it reads and the main thread's event-loop delay; the pixel-map hook (test-pixelmap.ts) runs the
// fixture sampling pass.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { RenderClient } from '../workers/render-client.js';
import type { IngestClient } from '../workers/ingest-client.js';
import type { AudioService } from '../audio/service.js';
import { testPixelMapRoute } from './test-pixelmap.js';

/** The event-loop delay timer's period: a sample is the time between two of its ticks, less this. */
const LOOP_RESOLUTION_MS = 10;
const lateMs = (ns: number): number => Math.max(0, Math.round(ns / 1e4) / 100 - LOOP_RESOLUTION_MS);

export function testHookRoutes(
  render: RenderClient,
  ingest?: IngestClient,
  audio?: AudioService,
  restorePixelMap: () => void = () => render.setPixelMap(null, null),
): RouteDef[] {
  // Sampled only while test hooks are mounted: production never pays for the histogram.
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  return [
    testPixelMapRoute(render, restorePixelMap),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/audio-probe`,
      auth: 'required',
      operationId: 'testAudioProbe',
      summary: 'The audio worker thread id, its ffmpeg pid and the event-loop delay since the last probe (test hook)',
      tags: ['test'],
      hidden: true,
      schema: {},
      responses: { 200: { description: '{pid, tid, ffmpegPid, loopDelayMs {mean, p50, p99, max}}; the delay histogram starts over' } },
      errors: [],
      handler: () => {
        const loopDelayMs = {
          mean: lateMs(loop.mean),
          p50: lateMs(loop.percentile(50)),
          p99: lateMs(loop.percentile(99)),
          max: lateMs(loop.max),
        };
        loop.reset();
        return { json: { pid: process.pid, ...(audio?.threads() ?? { tid: null, ffmpegPid: null }), loopDelayMs } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/kill-audio`,
      auth: 'required',
      operationId: 'testKillAudio',
      summary: 'Terminate the audio worker thread as a crash would (test hook)',
      tags: ['test'],
      hidden: true,
      schema: {},
      responses: { 200: { description: 'terminated; `killed` is false when no worker was running' } },
      errors: [],
      handler: () => ({ json: { success: true, killed: audio?.killWorker() ?? false } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/kill-ingest`,
      auth: 'required',
      operationId: 'testKillIngest',
      summary: 'Terminate the ingest worker thread as a crash would (test hook)',
      tags: ['test'],
      hidden: true,
      schema: {},
      responses: { 200: { description: 'terminated; `killed` is false when no worker was running' } },
      errors: [],
      handler: () => ({ json: { success: true, killed: ingest?.killWorker() ?? false } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/stall`,
      auth: 'required',
      operationId: 'testStall',
      summary: 'Block the render worker for `ms` milliseconds (test hook)',
      tags: ['test'],
      hidden: true,
      schema: { body: Type.Object({ ms: Type.Integer({ minimum: 1, maximum: 10_000 }) }) },
      responses: { 200: { description: 'stall requested' } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        render.stall(req.body.ms);
        return { json: { success: true } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/fail-frames`,
      auth: 'required',
      operationId: 'testFailFrames',
      summary: 'Make the next `frames` frames throw, as on a broken GL context (test hook)',
      tags: ['test'],
      hidden: true,
      schema: { body: Type.Object({ frames: Type.Integer({ minimum: 1, maximum: 1000 }) }) },
      responses: { 200: { description: 'failure injected' } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        render.failFrames(req.body.frames);
        return { json: { success: true } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/slow-frames`,
      auth: 'required',
      operationId: 'testSlowFrames',
      summary: 'Make the next `frames` frames each take at least `ms` longer, leaving no idle time (test hook)',
      tags: ['test'],
      hidden: true,
      schema: {
        body: Type.Object({ ms: Type.Integer({ minimum: 1, maximum: 2000 }), frames: Type.Integer({ minimum: 1, maximum: 10_000 }) }),
      },
      responses: { 200: { description: 'slow frames requested' } },
      errors: ['INVALID_REQUEST'],
      handler: (req) => {
        render.slowFrames(req.body.ms, req.body.frames);
        return { json: { success: true } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/_test/sample`,
      auth: 'required',
      operationId: 'testSample',
      summary: 'Read output pixels at normalized points, origin top-left (test hook)',
      tags: ['test'],
      hidden: true,
      schema: {
        body: Type.Object({
          points: Type.Array(Type.Tuple([Type.Number({ minimum: 0, maximum: 1 }), Type.Number({ minimum: 0, maximum: 1 })]), {
            minItems: 1,
            maxItems: 64,
          }),
        }),
      },
      responses: { 200: { description: 'RGBA per point' } },
      errors: ['INVALID_REQUEST'],
      handler: async (req) => {
        const pixels = await render.sample(req.body.points as Array<[number, number]>);
        if (!pixels) throw new ApiError('CHAIN_BUSY', `the render worker did not answer within ${LIMITS.chainTimeoutMs} ms`);
        return { json: { pixels } };
      },
    }),
  ];
}
