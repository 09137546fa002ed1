// A minimal Companion host for tests and the bench: forks the module's entry point with an IPC channel as Companion
// does (MODULE_MANIFEST, CONNECTION_ID, VERIFICATION_TOKEN in the environment), answers its `register` call, and
// speaks @companion-module/base's host protocol (`{direction, name, payload, callbackId}` with EJSON payloads, which
// are plain JSON for everything exchanged here): init, executeAction, updateFeedbacks, destroy; it keeps the values
// the module reports (status, variables, feedback values, definitions, log lines).
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/server.js';

export const MODULE_DIR = join(ROOT, 'integrations', 'companion');
/**
 * The manifest and its runtime.entrypoint (`../dist/main.js`), resolved as Companion resolves it. Set both to run the
 * suite against the packaged module instead: VJD_COMPANION_MANIFEST=…/pkg/companion/manifest.json and
 * VJD_COMPANION_ENTRY=…/pkg/main.js (after `npm run package` in integrations/companion).
 */
export const MANIFEST = process.env.VJD_COMPANION_MANIFEST ?? join(MODULE_DIR, 'companion', 'manifest.json');
export const ENTRY = process.env.VJD_COMPANION_ENTRY ?? join(MODULE_DIR, 'dist', 'main.js');

interface IpcMessage {
  direction: 'call' | 'response';
  name?: string;
  payload?: string;
  callbackId?: number;
  success?: boolean;
}

export interface FeedbackSpec {
  feedbackId: string;
  options?: Record<string, unknown>;
  image?: { width: number; height: number };
}

export class ModuleHost {
  readonly statuses: Array<{ status: string; message: string | null; at: number }> = [];
  readonly variables = new Map<string, unknown>();
  /** Feedback instance id → its value and the host's performance.now() when it arrived. */
  readonly feedbacks = new Map<string, { value: any; at: number }>();
  readonly definitions: Record<string, any> = {};
  readonly logs: string[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
  private readonly changeWaiters = new Set<() => void>();
  private registered!: Promise<void>;
  exited = false;
  /** The topics vjd last confirmed for the module's events socket (from the module's log line). */
  subscribed: string[] | null = null;

  private constructor(readonly child: ChildProcess) {}

  static async start(config: Record<string, unknown>, secrets: Record<string, unknown> = {}): Promise<ModuleHost> {
    const child = fork(ENTRY, [], {
      env: { ...process.env, MODULE_MANIFEST: MANIFEST, CONNECTION_ID: 'vjd-test', VERIFICATION_TOKEN: 'test-token' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const host = new ModuleHost(child);
    child.stdout!.on('data', (c: Buffer) => host.logs.push(c.toString()));
    child.stderr!.on('data', (c: Buffer) => host.logs.push(c.toString()));
    child.on('exit', () => {
      host.exited = true;
      for (const p of host.pending.values()) p.reject(new Error('module exited'));
      host.pending.clear();
    });
    host.registered = new Promise((resolve) => {
      child.on('message', (m: IpcMessage) => host.onMessage(m, resolve));
    });
    await host.within(host.registered, 30_000, 'register');
    await host.call('init', { label: 'vjd', isFirstInit: false, config, secrets, lastUpgradeIndex: -1, feedbacks: {}, actions: {} });
    return host;
  }

  private onMessage(m: IpcMessage, registered: () => void): void {
    if (m.direction === 'response') {
      const p = this.pending.get(m.callbackId!);
      this.pending.delete(m.callbackId!);
      const data = m.payload ? JSON.parse(m.payload) : undefined;
      if (m.success) p?.resolve(data);
      else p?.reject(new Error(data?.message ?? 'call failed'));
      return;
    }
    const data = m.payload ? JSON.parse(m.payload) : undefined;
    // performance.now(): the bench times feedback updates against it.
    const now = performance.now();
    let reply: unknown;
    switch (m.name) {
      case 'register':
        registered();
        reply = {};
        break;
      case 'set-status':
        this.statuses.push({ status: data.status, message: data.message, at: now });
        break;
      case 'setVariableValues':
        for (const v of data.newValues) this.variables.set(v.id, v.value);
        break;
      case 'setVariableDefinitions':
        this.definitions.variables = data.variables;
        for (const v of data.newValues ?? []) this.variables.set(v.id, v.value);
        break;
      case 'updateFeedbackValues':
        for (const v of data.values) this.feedbacks.set(v.id, { value: v.value, at: now });
        break;
      case 'setActionDefinitions':
        this.definitions.actions = data.actions;
        break;
      case 'setFeedbackDefinitions':
        this.definitions.feedbacks = data.feedbacks;
        break;
      case 'setPresetDefinitions':
        this.definitions.presets = data.presets;
        break;
      case 'log-message':
        this.logs.push(`[${data.level}] ${data.message}\n`);
        if (String(data.message).startsWith('subscribed: ')) this.subscribed = String(data.message).slice(12).split(',').filter(Boolean);
        break;
      case 'parseVariablesInString':
        reply = { text: data.text, variableIds: [] };
        break;
    }
    if (m.callbackId)
      this.child.send({ direction: 'response', callbackId: m.callbackId, success: true, payload: JSON.stringify(reply ?? {}) });
    for (const w of [...this.changeWaiters]) w();
  }

  call(name: string, msg: unknown, timeoutMs = 30_000): Promise<any> {
    const id = this.nextId++;
    const p = new Promise<any>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.child.send({ direction: 'call', name, payload: JSON.stringify(msg), callbackId: id });
    return this.within(p, timeoutMs, name);
  }

  /** Places feedbacks on buttons (each id is a feedback instance; its control is `bank:<id>`). */
  setFeedbacks(specs: Record<string, FeedbackSpec | null>): Promise<void> {
    const feedbacks: Record<string, unknown> = {};
    for (const [id, s] of Object.entries(specs)) {
      if (s === null) {
        feedbacks[id] = null;
        this.feedbacks.delete(id);
        continue;
      }
      feedbacks[id] = {
        id,
        controlId: `bank:${id}`,
        feedbackId: s.feedbackId,
        options: s.options ?? {},
        disabled: false,
        isInverted: false,
        upgradeIndex: null,
        image: s.image,
      };
    }
    return this.call('updateFeedbacks', { feedbacks });
  }

  /** Runs an action as a button press would; resolves with the module's `{success, errorMessage}`. */
  action(actionId: string, options: Record<string, unknown> = {}): Promise<{ success: boolean; errorMessage?: string }> {
    const action = { id: `a${this.nextId}`, controlId: 'bank:press', actionId, options, disabled: false, upgradeIndex: null };
    return this.call('executeAction', { action, surfaceId: undefined });
  }

  /** Waits until cond holds, re-checking on every message from the module and every 100 ms. */
  async until(cond: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!cond()) {
      if (this.exited) throw new Error(`module exited while waiting for ${what}\n${this.logs.join('').slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${this.logs.join('').slice(-2000)}`);
      await new Promise<void>((r) => {
        const done = (): void => {
          clearTimeout(t);
          this.changeWaiters.delete(done);
          r();
        };
        const t = setTimeout(done, 100);
        this.changeWaiters.add(done);
      });
    }
  }

  lastStatus(): string | undefined {
    return this.statuses.at(-1)?.status;
  }

  async stop(): Promise<void> {
    if (!this.exited) await this.call('destroy', {}, 10_000).catch(() => undefined);
    this.child.kill('SIGKILL');
  }

  private within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let t: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms\n${this.logs.join('').slice(-2000)}`)), ms);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(t));
  }
}
