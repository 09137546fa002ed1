// Audio for direct GL renders: real analysis and tempo blocks written with chosen values, read by the render
// worker's AudioFrame at one instant, so a shader sees exactly the built-ins and textures a frame would.
import { AUDIO_BINS, AudioBlockWriter, createAudioBlock } from '../../src/shared/audio-block.js';
import { clockNow, createTempoBlock } from '../../src/shared/tempo-block.js';
import { AudioFrame } from '../../workers/render/audio-frame.js';
import { AudioTextures } from '../../workers/render/audio-textures.js';
import type { GL } from './gl.js';

export interface TestAudio {
  level?: number;
  bass?: number;
  lowMid?: number;
  highMid?: number;
  high?: number;
  onset?: number;
  bpm?: number;
  /** Beats since beat 0 at the frame's instant (fraction = BEAT_PHASE). */
  beats?: number;
  spectrum?: (bin: number) => number;
  waveform?: (sample: number) => number;
}

/** An AudioFrame holding `a` (zeros where absent) with textures on `gl`; destroy() its textures when done. */
export function testAudioFrame(gl: GL, a: TestAudio): AudioFrame {
  const block = createAudioBlock();
  const t = clockNow();
  const spectrum = Float32Array.from({ length: AUDIO_BINS }, (_, i) => a.spectrum?.(i) ?? 0);
  const waveform = Float32Array.from({ length: AUDIO_BINS }, (_, i) => a.waveform?.(i) ?? 0);
  const values = {
    level: a.level ?? 0,
    bass: a.bass ?? 0,
    lowMid: a.lowMid ?? 0,
    highMid: a.highMid ?? 0,
    high: a.high ?? 0,
    onset: a.onset ?? 0,
    hopMs: 0,
  };
  new AudioBlockWriter(block).write(values, false, { t: t - 1, spectrum, waveform });
  const bpm = a.bpm ?? 120;
  const tempo = createTempoBlock({
    bpm,
    refTime: t,
    refBeat: a.beats ?? 0,
    beatsPerBar: 4,
    source: 'manual',
    confidence: 1,
    range: { min: 75, max: 150 },
    offsetMs: 0,
  });
  const frame = new AudioFrame(block, tempo);
  frame.textures = new AudioTextures(gl, frame);
  frame.update(t);
  return frame;
}
