// Output mapping: each mapped output gets its own pass over the finished program (a slice of it, corner-pinned or
// mesh-warped, soft-edged, or a test card) into a target of its own, read back into that output's ring. Every
// pass reads the one output target, so slices of one program to several outputs cost one render.
import { BLEND_GAMMA, invert3, type Mat3, meshVertices, type OutputMap, squareToQuad } from '../../src/shared/output-map.js';
import type { OutputMapItem } from '../../src/shared/protocol/render.js';
import { BLIT_VERTEX, compileProgram, FRAGMENT_PRECISION, type GL, type Quad } from './gl-util.js';
import { MESH_FRAGMENT, MESH_VERTEX, PIN_FRAGMENT } from './output-map-glsl.js';
import { ProgramReadback } from './program-readback.js';
import { createTarget, type RenderTarget } from './targets.js';

interface Entry {
  id: string;
  map: OutputMap;
  program: MapProgram;
  inverse: Mat3;
  mesh: { buffer: WebGLBuffer; count: number } | null;
  readback: ProgramReadback;
  target: RenderTarget | null;
}

const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

class MapProgram {
  readonly program: WebGLProgram;
  /** The mesh variant's slice-point attribute (-1 in the full-screen one). */
  readonly localAttr: number;
  private readonly u: Record<string, WebGLUniformLocation | null> = {};
  constructor(
    private readonly gl: GL,
    vertex: string,
    fragment: string,
  ) {
    this.program = compileProgram(gl, vertex, `${FRAGMENT_PRECISION}${fragment}`);
    this.localAttr = gl.getAttribLocation(this.program, 'local');
    for (const n of ['src', 'slice', 'sliceSize', 'blend', 'invGamma', 'inverse']) this.u[n] = gl.getUniformLocation(this.program, n);
  }

  use(e: Entry, src: WebGLTexture, width: number, height: number): void {
    const gl = this.gl;
    const s = e.map.slice ?? { x: 0, y: 0, w: 1, h: 1 };
    const b = e.map.blend ?? {};
    gl.useProgram(this.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, src);
    gl.uniform1i(this.u.src!, 0);
    gl.uniform4f(this.u.slice!, s.x, s.y, s.w, s.h);
    gl.uniform2f(this.u.sliceSize!, s.w * width, s.h * height);
    gl.uniform4f(this.u.blend!, b.left ?? 0, b.right ?? 0, b.top ?? 0, b.bottom ?? 0);
    gl.uniform1f(this.u.invGamma!, 1 / (b.gamma ?? BLEND_GAMMA));
    // GLSL reads matrices by column; WebGL 1 cannot transpose on upload.
    const m = e.inverse;
    if (this.u.inverse) gl.uniformMatrix3fv(this.u.inverse, false, [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]);
  }
}

/** The shader variant a map needs: only the parts it uses are compiled in. */
function variant(map: OutputMap): { mesh: boolean; defines: string } {
  const b = map.blend;
  const flags = [
    map.testCard ? 'CARD' : '',
    b && (b.left || b.right || b.top || b.bottom) ? 'BLEND' : '',
    map.corners ? 'WARP' : '',
  ].filter(Boolean);
  return { mesh: map.mesh !== undefined, defines: flags.map((f) => `#define ${f}\n`).join('') };
}

export class OutputMapStage {
  private entries: Entry[] = [];
  /** Compiled variants by kind and defines; a handful at most. */
  private readonly programs = new Map<string, MapProgram>();

  constructor(
    private readonly gl: GL,
    private readonly quad: Quad,
  ) {}

  private programFor(map: OutputMap): MapProgram {
    const { mesh, defines } = variant(map);
    const key = `${mesh ? 'mesh' : 'pin'}\n${defines}`;
    let p = this.programs.get(key);
    if (!p) {
      p = mesh
        ? new MapProgram(this.gl, MESH_VERTEX, defines + MESH_FRAGMENT)
        : new MapProgram(this.gl, BLIT_VERTEX, defines + PIN_FRAGMENT);
      this.programs.set(key, p);
    }
    return p;
  }

  get active(): boolean {
    return this.entries.length > 0;
  }

  /** The mapped outputs now running; a ring kept from the last call keeps its readback (and its frame count). */
  set(items: readonly OutputMapItem[]): void {
    const old = new Map(this.entries.map((e) => [e.id, e]));
    this.entries = items.map((it) => {
      const was = old.get(it.id);
      old.delete(it.id);
      const keep = was && was.readback.ring === it.ring;
      if (was) this.freeMesh(was);
      if (was && !keep) this.freeEntry(was);
      return {
        id: it.id,
        map: it.map,
        program: this.programFor(it.map),
        inverse: it.map.corners ? invert3(squareToQuad(it.map.corners)) : IDENTITY,
        mesh: it.map.mesh ? this.meshBuffer(it.map.mesh) : null,
        readback: keep ? was.readback : new ProgramReadback(this.gl, this.quad, it.ring),
        target: keep ? was.target : null,
      };
    });
    for (const e of old.values()) {
      this.freeMesh(e);
      this.freeEntry(e);
    }
  }

  /** Draws every mapped output from `src` (the output target) and reads each into its ring. */
  run(src: RenderTarget, width: number, height: number): void {
    const gl = this.gl;
    for (const e of this.entries) {
      if (!e.target || e.target.width !== width || e.target.height !== height) {
        e.target?.destroy();
        e.target = createTarget(gl, width, height);
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, e.target.framebuffer);
      gl.viewport(0, 0, width, height);
      gl.clearColor(0, 0, 0, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      e.program.use(e, src.texture, width, height);
      if (e.mesh) {
        const local = e.program.localAttr;
        gl.bindBuffer(gl.ARRAY_BUFFER, e.mesh.buffer);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 16, 0);
        gl.enableVertexAttribArray(local);
        gl.vertexAttribPointer(local, 2, gl.FLOAT, false, 16, 8);
        gl.drawArrays(gl.TRIANGLES, 0, e.mesh.count);
        gl.disableVertexAttribArray(local);
      } else this.quad.draw();
      e.readback.read(e.target, width, height);
    }
  }

  destroy(): void {
    this.set([]);
    for (const p of this.programs.values()) this.gl.deleteProgram(p.program);
    this.programs.clear();
  }

  private meshBuffer(mesh: NonNullable<OutputMap['mesh']>): { buffer: WebGLBuffer; count: number } {
    const gl = this.gl;
    const data = meshVertices(mesh);
    const buffer = gl.createBuffer();
    if (!buffer) throw new Error('createBuffer failed (context lost?)');
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    return { buffer, count: data.length / 4 };
  }

  private freeMesh(e: Entry): void {
    if (e.mesh) this.gl.deleteBuffer(e.mesh.buffer);
    e.mesh = null;
  }

  private freeEntry(e: Entry): void {
    e.readback.destroy();
    e.target?.destroy();
  }
}
