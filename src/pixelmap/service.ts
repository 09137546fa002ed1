// Pixel mapping wired to the running show: the saved fixtures become the render worker's sample table and the
// sender's patch, sharing one samples block, again after every change (a new block only when the pixel count
// changes). With config pixelmap.enabled false the patch can still be edited, but nothing samples or sends.
import type { PixelmapConfig } from '../config/pixelmap.js';
import type { Logger } from '../log.js';
import { createPixelSamples } from '../shared/pixel-samples.js';
import type { StateStore } from '../state/store.js';
import { PixelOutClient, type PixelOutStatus } from '../workers/pixelout-client.js';
import type { RenderClient } from '../workers/render-client.js';
import type { PixelTest } from '../shared/pixelmap/colour.js';
import { samplePoints, totalPixels } from '../shared/pixelmap/geometry.js';
import { patchOf, patchProblem, universeKey } from '../shared/pixelmap/patch.js';
import { stableCid } from '../shared/pixelmap/packets.js';
import { FixtureRegistry, type FixtureFields } from './registry.js';
import type { Fixture } from '../shared/pixelmap/types.js';

export interface PixelmapDeps {
  config: PixelmapConfig;
  state: StateStore;
  render: Pick<RenderClient, 'setPixelMap'>;
  log: Logger;
  /** What makes the sACN source id this box's own across restarts (its host name and data folder). */
  cidSeed?: string;
  /** The sender; by default a pixel-out thread while config pixelmap.enabled (a unit test hands a stand-in). */
  client?: Sender | null;
}

type Sender = Pick<PixelOutClient, 'configure' | 'stop' | 'status'>;

/** One universe of the patch and the fixture runs in it. */
export interface PatchUniverse {
  protocol: Fixture['protocol'];
  destination: string;
  universe: number;
  runs: Array<{ fixture: string; firstPixel: number; pixels: number; from: number; to: number }>;
}

const IDLE: PixelOutStatus = { running: false, restarts: 0, packetsPerSecond: 0, framesSent: 0, lastError: null };

export class PixelmapService {
  readonly registry: FixtureRegistry;
  private readonly client: Sender | null;
  private block: SharedArrayBuffer | null = null;
  private blockSize = 0;
  private statusMemo: { sender: PixelOutStatus; saved: unknown; view: PixelmapStatus } | null = null;

  constructor(private readonly d: PixelmapDeps) {
    const c = d.config;
    this.registry = new FixtureRegistry(d.state, c.destinations);
    this.client = d.client !== undefined ? d.client : c.enabled ? senderOf(c, d.log, d.cidSeed) : null;
  }

  /** Applies the saved patch (at start); a saved patch the config no longer allows is logged and not sent. */
  start(): void {
    const p = patchProblem(this.fixtures, this.d.config.destinations);
    // The sender still refuses what the config does not allow; the operator learns why those fixtures stay dark.
    if (p) this.d.log.warn({ field: p.field }, `saved pixel-mapping patch: ${p.message}`);
    this.apply();
  }

  /** The config the service started with (pixelmap keys apply at a restart). */
  get config(): PixelmapConfig {
    return this.d.config;
  }

  get fixtures(): readonly Fixture[] {
    return this.registry.fixtures;
  }

  get test(): PixelTest {
    return this.registry.saved.test;
  }

  get sender(): PixelOutStatus {
    return this.client?.status ?? IDLE;
  }

  add(fields: FixtureFields): Fixture {
    return this.changed(this.registry.add(fields));
  }

  edit(id: string, change: Partial<FixtureFields>): Fixture {
    return this.changed(this.registry.edit(id, change));
  }

  remove(id: string): Fixture {
    return this.changed(this.registry.remove(id));
  }

  setTest(test: PixelTest): PixelTest {
    this.registry.setTest(test);
    return this.changed(test);
  }

  /** The universes in use, in (protocol, destination, universe) order. */
  patch(): PatchUniverse[] {
    const byKey = new Map<string, PatchUniverse>();
    const fixtures = this.fixtures;
    patchOf(fixtures).forEach((slots, i) => {
      for (const s of slots) {
        const key = universeKey(s);
        let u = byKey.get(key);
        if (!u) byKey.set(key, (u = { protocol: s.protocol, destination: s.destination, universe: s.universe, runs: [] }));
        const to = s.channel + s.pixels * s.channels - 1;
        u.runs.push({ fixture: fixtures[i]!.id, firstPixel: s.firstPixel, pixels: s.pixels, from: s.channel, to });
      }
    });
    const order = (u: PatchUniverse) => [u.protocol, u.destination, String(u.universe).padStart(5, '0')].join(' ');
    return [...byKey.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  }

  /** GET /status's part: a new object only when a figure changed (the status body is memoised on it). */
  status(): PixelmapStatus {
    const sender = this.sender;
    const saved = this.registry.saved;
    if (this.statusMemo && this.statusMemo.sender === sender && this.statusMemo.saved === saved) return this.statusMemo.view;
    const view: PixelmapStatus = {
      enabled: this.d.config.enabled,
      fixtures: saved.fixtures.length,
      pixels: totalPixels(saved.fixtures),
      universes: new Set(patchOf(saved.fixtures).flat().map(universeKey)).size,
      test: saved.test,
      ...sender,
    };
    this.statusMemo = { sender, saved, view };
    return view;
  }

  /** Hands the render worker and the sender the saved patch again (after the test hook borrowed the sampling pass). */
  reapply(): void {
    this.apply();
  }

  async stop(): Promise<void> {
    await this.client?.stop();
  }

  private changed<T>(v: T): T {
    this.apply();
    return v;
  }

  /** Hands the render worker and the sender the current patch; nothing at all while disabled. */
  private apply(): void {
    const client = this.client;
    if (!client) {
      this.d.render.setPixelMap(null, null);
      return;
    }
    const { fixtures, test } = this.registry.saved;
    const count = totalPixels(fixtures);
    if (count === 0) {
      this.d.render.setPixelMap(null, null);
      // The sender only runs once there was something to send; an empty list ends its universes.
      if (this.block) client.configure(this.settings([], this.block, test));
      return;
    }
    if (!this.block || this.blockSize !== count) {
      this.block = createPixelSamples(count);
      this.blockSize = count;
    }
    this.d.render.setPixelMap(samplePoints(fixtures), this.block);
    client.configure(this.settings([...fixtures], this.block, test));
  }

  private settings(fixtures: Fixture[], samples: SharedArrayBuffer, test: PixelTest) {
    const c = this.d.config;
    return { fixtures, samples, rateHz: c.rateHz, keepAliveMs: c.keepAliveMs, sync: c.sync, test };
  }
}

function senderOf(c: PixelmapConfig, log: Logger, cidSeed: string | undefined): PixelOutClient {
  const ports = { artnetPort: c.artnetPort ?? 6454, sacnPort: c.sacnPort ?? 5568 };
  const cid = cidSeed !== undefined ? { cid: stableCid(cidSeed) } : {};
  return new PixelOutClient({ destinations: c.destinations, ...ports, ...cid }, log.child({ module: 'pixelout' }));
}

export interface PixelmapStatus extends PixelOutStatus {
  enabled: boolean;
  fixtures: number;
  pixels: number;
  universes: number;
  test: PixelTest;
}
