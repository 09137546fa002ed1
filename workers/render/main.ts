// Render worker entry: owns the one headless-gl context of the process, the effects chain and the frame loop.
// Every message is typed in src/shared/messages.ts; chain commands past their deadline are dropped unapplied.
import { parentPort, workerData } from 'node:worker_threads';
import type { MainToRender, RenderInit, RenderToMain } from '../../src/shared/messages.js';
import { RenderEngine } from './engine.js';
import { trackGl } from './gl-tracker.js';

const port = parentPort!;
const init = workerData as RenderInit;
const post = (m: RenderToMain): void => port.postMessage(m);

function fatal(message: string): void {
  post({ t: 'fatal', message });
}

let engine: RenderEngine;
try {
  const { default: createGL } = await import('gl');
  const gl = createGL(init.width, init.height, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('headless-gl could not create a context (no X display or no GLX)');
  trackGl(gl);
  const renderer = `${String(gl.getParameter(gl.RENDERER))} / ${String(gl.getParameter(gl.VERSION))}`;
  engine = new RenderEngine(gl, init.width, init.height, init.fps, renderer);
  engine.onSource = (o) => {
    if (o.ok) post({ t: 'source-reply', id: o.id, ok: true, key: o.key });
    else post({ t: 'source-reply', id: o.id, ok: false, reason: o.reason ?? 'failed', message: o.message ?? 'failed' });
  };
  let lastError = '';
  engine.onError = (message) => {
    if (message === lastError) return; // once per distinct error, not 30 times a second
    lastError = message;
    post({ t: 'log', level: 'error', msg: 'frame failed', fields: { err: message } });
  };
  post({ t: 'ready', renderer, width: init.width, height: init.height });
} catch (err) {
  fatal((err as Error).message);
  throw err;
}

let snapshotVersion = 0;
function publishChain(): void {
  snapshotVersion++;
  post({ t: 'snapshot', version: snapshotVersion, items: engine.chain.items(), entries: engine.chain.entries() });
}

const statsTimer = setInterval(() => post({ t: 'stats', stats: engine.snapshotStats() }), 250);

port.on('message', (m: MainToRender) => {
  try {
    handle(m);
  } catch (err) {
    // A GL or program error answers the one command; the worker and its frame loop keep running.
    const message = (err as Error).message;
    post({ t: 'log', level: 'error', msg: 'render command failed', fields: { command: m.t, err: message } });
    if (m.t === 'chain') post({ t: 'chain-reply', id: m.id, reply: { ok: false, code: 'EFFECT_LOAD_FAILED', message } });
    if (m.t === 'source') post({ t: 'source-reply', id: m.id, ok: false, reason: 'failed', message });
    if (m.t === 'sample') post({ t: 'sample-reply', id: m.id, pixels: [] });
  }
});

function handle(m: MainToRender): void {
  switch (m.t) {
    case 'catalog': {
      for (const r of engine.setCatalog(m.effects, m.generators, m.noSignal ?? null)) {
        post({ t: 'compiled', type: r.type, kind: r.kind, ok: r.ok, ...(r.error !== undefined ? { error: r.error } : {}) });
      }
      return;
    }
    case 'restore': {
      const problems = engine.chain.restore(m.chain, m.ceiling);
      for (const p of problems) post({ t: 'log', level: 'warn', msg: 'a saved chain entry was not restored', fields: { problem: p } });
      publishChain();
      return;
    }
    case 'chain': {
      if (Date.now() > m.deadline) {
        post({ t: 'expired', id: m.id });
        return;
      }
      const before = engine.chain.version;
      const reply = engine.chain.apply(m.cmd);
      if (engine.chain.version !== before) publishChain();
      post({ t: 'chain-reply', id: m.id, reply });
      return;
    }
    case 'source':
      engine.requestSource(m.id, m.key, m.deadline, m.spec);
      return;
    case 'global':
      engine.output.blackout = m.blackout;
      engine.output.dimmer = m.dimmer;
      return;
    case 'palette':
      engine.setPalette(m.colors);
      return;
    case 'sample':
      post({ t: 'sample-reply', id: m.id, pixels: engine.output.sample(m.points) });
      return;
    case 'stall':
      if (init.testHooks) {
        // Test hook: blocks this thread to prove CHAIN_BUSY semantics. Refused unless hooks are enabled.
        const until = Date.now() + Math.min(m.ms, 10_000);
        while (Date.now() < until) {
          /* busy */
        }
      }
      return;
    case 'stop':
      clearInterval(statsTimer);
      engine.destroy();
      port.close();
      return;
  }
}

engine.start();
