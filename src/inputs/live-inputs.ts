// Builds the live-input providers from config and lists their inputs in browse order: test, stream, v4l2.
import type { Config } from '../config/schema.js';
import { log } from '../log.js';
import type { LiveInput, LiveProvider } from './providers.js';
import { createStreamProvider } from './stream-provider.js';
import { createTestProvider } from './test-provider.js';
import { createV4l2Provider } from './v4l2-provider.js';

export function createLiveProviders(config: Pick<Config, 'live'>, opts: { v4l2PollMs?: number } = {}): LiveProvider[] {
  const providers = [createTestProvider(config.live.test), createStreamProvider(config.live.streams)];
  const v4l2 = config.live.v4l2;
  if (v4l2.enabled) providers.push(createV4l2Provider({ devDir: v4l2.devDir, sysfsDir: v4l2.sysfsDir, pollMs: opts.v4l2PollMs }));
  return providers;
}

/**
 * Every input of every provider, providers in the order given. An id already taken by an earlier provider is
 * skipped (ids select inputs, so one id must mean one input); a provider that throws contributes nothing.
 */
export async function enumerateAll(providers: readonly LiveProvider[]): Promise<LiveInput[]> {
  const lists = await Promise.all(
    providers.map((p) =>
      p.enumerate().catch((err: unknown) => {
        log.warn({ provider: p.type, error: err instanceof Error ? err.message : String(err) }, 'live provider failed to enumerate');
        return [] as LiveInput[];
      }),
    ),
  );
  const seen = new Set<string>();
  const out: LiveInput[] = [];
  for (const list of lists) {
    for (const input of list) {
      if (seen.has(input.id)) continue;
      seen.add(input.id);
      out.push(input);
    }
  }
  return out;
}
