// Small GL helpers for vjd's own (non-ISF) passes: program compilation and a full-screen quad draw.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GL = any;

export const BLIT_VERTEX = `
attribute vec2 position;
varying vec2 uv;
void main() {
  uv = position * 0.5 + 0.5;
  gl_Position = vec4(position, 0.0, 1.0);
}`;

/** Compiles and links a program with `position` at attribute 0; throws with the info log on failure. */
export function compileProgram(gl: GL, vertex: string, fragment: string): unknown {
  const vs = compileShader(gl, gl.VERTEX_SHADER, vertex);
  const fs = compileShader(gl, gl.FRAGMENT_SHADER, fragment);
  const program = gl.createProgram();
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.bindAttribLocation(program, 0, 'position');
  gl.linkProgram(program);
  gl.deleteShader(vs);
  gl.deleteShader(fs);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    const info = String(gl.getProgramInfoLog(program) ?? 'link failed');
    gl.deleteProgram(program);
    throw new Error(info.trim());
  }
  return program;
}

function compileShader(gl: GL, kind: number, source: string): unknown {
  const shader = gl.createShader(kind);
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    const info = String(gl.getShaderInfoLog(shader) ?? 'compile failed');
    gl.deleteShader(shader);
    throw new Error(info.trim());
  }
  return shader;
}

/** A full-screen triangle strip in a buffer of its own. */
export class Quad {
  readonly buffer: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- shaped like QuadBuffer for IsfProgram
  constructor(private readonly gl: GL) {
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  }

  draw(): void {
    const gl = this.gl;
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  destroy(): void {
    this.gl.deleteBuffer(this.buffer);
  }
}
