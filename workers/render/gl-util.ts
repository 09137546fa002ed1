// Small GL helpers for the render worker: the one GL type, program compilation and the full-screen quad.

/** The headless-gl WebGL 1 context, typed by gl-module.d.ts (the `gl` package ships no typings). */
export type GL = WebGLRenderingContext;

/** Highest float precision the fragment stage has (highp is optional there in GLSL ES 1.0). */
export const FRAGMENT_PRECISION = `#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
`;

export const BLIT_VERTEX = `
attribute vec2 position;
varying vec2 uv;
void main() {
  uv = position * 0.5 + 0.5;
  gl_Position = vec4(position, 0.0, 1.0);
}`;

/** Compiles and links a program with `position` at attribute 0; throws with the info log on failure. */
export function compileProgram(gl: GL, vertex: string, fragment: string): WebGLProgram {
  const vs = compileShader(gl, gl.VERTEX_SHADER, vertex);
  const fs = compileShader(gl, gl.FRAGMENT_SHADER, fragment);
  const program = gl.createProgram();
  if (!program) throw new Error('createProgram failed (context lost?)');
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

function compileShader(gl: GL, kind: number, source: string): WebGLShader {
  const shader = gl.createShader(kind);
  if (!shader) throw new Error('createShader failed (context lost?)');
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
  private readonly buffer: WebGLBuffer;
  constructor(private readonly gl: GL) {
    const buffer = gl.createBuffer();
    if (!buffer) throw new Error('createBuffer failed (context lost?)');
    this.buffer = buffer;
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
