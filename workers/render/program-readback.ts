// Program readback for the output worker: the output target (after effects, dimmer and blackout) copied into the
// output ring once per frame, only while an output is active. Rows stay bottom-up as GL reads them; the output
// ffmpeg flips them (one filter there instead of a row copy here, on the render thread).
import { FrameRingWriter } from '../../src/shared/frame-ring.js';
import type { GL } from './gl-util.js';
import type { RenderTarget } from './targets.js';

export class ProgramReadback {
  private readonly writer: FrameRingWriter;

  constructor(readonly ring: SharedArrayBuffer) {
    this.writer = new FrameRingWriter(ring);
  }

  /** Reads the whole target into a free ring slot and publishes it as the newest program frame. */
  read(gl: GL, target: RenderTarget, width: number, height: number): void {
    const pixels = this.writer.begin(width, height);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    this.writer.commit();
  }
}
