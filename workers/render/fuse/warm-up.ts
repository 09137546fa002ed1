// The first draw of a fused program, done ahead of the frames that use it: Mesa generates a shader's machine
// code at its first draw, not at link. Shared by the render thread and the compile helper so both make the same
// llvmpipe variant (and so the helper's on-disk cache entry is the one the render thread looks up).
import { PALETTE_SLOTS } from '../../../src/shared/palette.js';
import type { GL } from '../gl-util.js';
import { isfDate } from '../isf-builtins.js';
import type { IsfFrame } from '../isf-program.js';
import { createTarget, setFilter, type RenderTarget } from '../targets.js';
import type { FusedProgram } from './fused-program.js';

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/**
 * A tiny size whose sides are powers of two exactly where the frame's are: llvmpipe keys variants on that, so
 * a 4×4 warm-up at 1280×720 left a second code generation for the first real frame.
 */
export const warmUpSize = (width: number, height: number): [number, number] => [isPowerOfTwo(width) ? 4 : 3, isPowerOfTwo(height) ? 4 : 3];

export class WarmUp {
  private readonly size: [number, number];
  private scratch: [RenderTarget, RenderTarget] | null = null;

  constructor(
    private readonly gl: GL,
    width: number,
    height: number,
  ) {
    this.size = warmUpSize(width, height);
  }

  /**
   * One draw with default values into a tiny target, then finish (the code generation happens here). `nearest`:
   * the input filter the frames will draw with (also part of llvmpipe's variant key; see FuseStep.ownPixel).
   */
  draw(program: FusedProgram, nearest: boolean): void {
    const gl = this.gl;
    const [w, h] = this.size;
    if (!this.scratch) this.scratch = [createTarget(gl, w, h), createTarget(gl, w, h)];
    const [a, b] = this.scratch;
    setFilter(gl, a.texture, nearest);
    const frame: IsfFrame = {
      input: a.texture,
      inputSize: [w, h],
      target: b.framebuffer,
      time: 0,
      timeDelta: 0,
      frameIndex: 0,
      date: isfDate(),
      palette: { rgb: new Float32Array(PALETTE_SLOTS * 3), count: 1 },
      values: {},
    };
    program.render(
      frame,
      program.descs.map(() => ({ inputs: {} })),
      w,
      h,
    );
    gl.finish();
  }

  destroy(): void {
    if (this.scratch) for (const t of this.scratch) t.destroy();
    this.scratch = null;
  }
}
