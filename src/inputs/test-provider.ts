// Live inputs from configured ffmpeg lavfi patterns: always available, so a box without hardware still has inputs.
import type { TestInputConfig } from '../config/schema.js';
import type { LiveInput, LiveProvider } from './providers.js';

export function createTestProvider(tests: readonly TestInputConfig[]): LiveProvider {
  return {
    type: 'test',
    label: 'Test Patterns',
    async enumerate(): Promise<LiveInput[]> {
      return tests.map((t) => ({
        id: t.id,
        name: t.name,
        provider: 'test',
        input: { kind: 'lavfi', pattern: t.pattern },
        available: true,
      }));
    },
  };
}
