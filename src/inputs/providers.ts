// The live-input provider interface: each provider (test patterns, streams, capture devices) is a descriptor.
import type { IngestInput } from '../shared/protocol/ingest.js';

export type LiveProviderType = 'test' | 'stream' | 'v4l2';

export interface LiveInput {
  /** Unique within vjd; the browse id is `liveInput:<id>`. */
  id: string;
  name: string;
  provider: LiveProviderType;
  /** What the ingest worker hands to ffmpeg. */
  input: IngestInput;
  /** False for a device that is known but cannot be opened now (browse omits it). */
  available: boolean;
}

export interface LiveProvider {
  type: LiveProviderType;
  /** Display name of the provider's browse folder. */
  label: string;
  enumerate(): Promise<LiveInput[]>;
  /** Calls onChange when the set may have changed (hotplug); returns the function that stops watching. */
  watch?(onChange: () => void): () => void;
}
