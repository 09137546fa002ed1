// Effect thumbnails: one frame of an effect, at its default inputs, drawn over a fixed test card at render size.
// The card (colour bars, a grey ramp and a ring, so colour, tone and geometry effects all show) is drawn once and
// kept; the effect's program is taken from the pool for the one frame and destroyed, as generator thumbnails do.
import type { IsfDescriptor } from '../../src/shared/isf-types.js';
import { BLIT_VERTEX, compileProgram, FRAGMENT_PRECISION, type GL, type Quad } from './gl-util.js';
import { isfDate } from './isf-builtins.js';
import type { ProgramPool } from './program-pool.js';
import { createTarget, type RenderTarget } from './targets.js';

// Seven bars over the top two thirds (white, yellow, cyan, green, magenta, red, blue), a black-to-white ramp below,
// and a white ring in the middle. GL's y grows upwards: v above 1/3 is the top two thirds.
const CARD = `${FRAGMENT_PRECISION}uniform vec2 size;
void main() {
  vec2 uv = gl_FragCoord.xy / size;
  vec3 c;
  if (uv.y > 1.0 / 3.0) {
    float bar = floor(uv.x * 7.0);
    c = vec3(
      bar == 0.0 || bar == 1.0 || bar == 4.0 || bar == 5.0 ? 1.0 : 0.0,
      bar <= 3.0 ? 1.0 : 0.0,
      bar == 0.0 || bar == 2.0 || bar == 4.0 || bar == 6.0 ? 1.0 : 0.0);
  } else {
    c = vec3(uv.x);
  }
  vec2 p = (gl_FragCoord.xy - 0.5 * size) / size.y;
  float ring = abs(length(p) - 0.3);
  c = mix(vec3(1.0), c, step(0.02, ring));
  gl_FragColor = vec4(c, 1.0);
}`;

export interface Drawn {
  texture: WebGLTexture;
  width: number;
  height: number;
}

export class EffectThumbs {
  private card: RenderTarget | null = null;
  private out: RenderTarget | null = null;

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
    private readonly pool: ProgramPool,
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** `desc` over the test card at `time` (seconds); throws ProgramLoadError when the effect does not compile. */
  draw(desc: IsfDescriptor, time: number, palette: { rgb: Float32Array; count: number }): Drawn {
    const card = this.testCard();
    const program = this.pool.take(desc);
    try {
      this.out ??= createTarget(this.gl, this.width, this.height);
      const t = this.out;
      // The pool's programs follow the render scale; a thumbnail draws the effect at the full render size.
      if (program.width !== t.width || program.height !== t.height) program.resize(t.width, t.height);
      program.render({
        input: card.texture,
        inputSize: [card.width, card.height],
        target: t.framebuffer,
        time,
        timeDelta: 0,
        frameIndex: 0,
        date: isfDate(),
        palette,
        values: {},
      });
      return { texture: t.texture, width: t.width, height: t.height };
    } finally {
      program.destroy();
    }
  }

  destroy(): void {
    this.card?.destroy();
    this.out?.destroy();
    this.card = null;
    this.out = null;
  }

  /** The card, drawn on first use (ThumbStage draws it while the worker starts); its program is dropped at once. */
  testCard(): RenderTarget {
    if (this.card) return this.card;
    const gl = this.gl;
    const target = createTarget(gl, this.width, this.height);
    const program = compileProgram(gl, BLIT_VERTEX, CARD);
    try {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      gl.viewport(0, 0, target.width, target.height);
      gl.disable(gl.BLEND);
      gl.disable(gl.SCISSOR_TEST);
      gl.useProgram(program);
      gl.uniform2f(gl.getUniformLocation(program, 'size'), target.width, target.height);
      this.quad.draw();
    } finally {
      gl.deleteProgram(program);
    }
    this.card = target;
    return target;
  }
}
