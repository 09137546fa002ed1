// Minimal WebGL 1 typings for headless-gl (the `gl` package ships none and our lib is ES2022 without DOM).

// Object handles are opaque; the brand keeps a texture from being passed where a buffer is expected (type-level only).
interface WebGLObject {
  readonly __webglBrand?: string;
}
interface WebGLTexture extends WebGLObject {
  readonly __webglBrand?: 'texture';
}
interface WebGLBuffer extends WebGLObject {
  readonly __webglBrand?: 'buffer';
}
interface WebGLFramebuffer extends WebGLObject {
  readonly __webglBrand?: 'framebuffer';
}
interface WebGLRenderbuffer extends WebGLObject {
  readonly __webglBrand?: 'renderbuffer';
}
interface WebGLProgram extends WebGLObject {
  readonly __webglBrand?: 'program';
}
interface WebGLShader extends WebGLObject {
  readonly __webglBrand?: 'shader';
}
interface WebGLUniformLocation extends WebGLObject {
  readonly __webglBrand?: 'uniform';
}
interface WebGLActiveInfo {
  readonly name: string;
  readonly size: number;
  readonly type: number;
}

interface WebGLContextAttributes {
  alpha?: boolean;
  depth?: boolean;
  stencil?: boolean;
  antialias?: boolean;
  premultipliedAlpha?: boolean;
  preserveDrawingBuffer?: boolean;
}

type GLFloatList = Float32Array | readonly number[];
type GLIntList = Int32Array | readonly number[];

interface WebGLRenderingContext {
  readonly drawingBufferWidth: number;
  readonly drawingBufferHeight: number;

  getExtension(name: 'STACKGL_destroy_context'): { destroy(): void } | null;
  getExtension(name: 'STACKGL_resize_drawingbuffer'): { resize(width: number, height: number): void } | null;
  getExtension(name: string): unknown;
  getSupportedExtensions(): string[] | null;
  getParameter(pname: number): unknown;
  getError(): number;
  isContextLost(): boolean;
  getContextAttributes(): WebGLContextAttributes | null;

  enable(cap: number): void;
  disable(cap: number): void;
  viewport(x: number, y: number, width: number, height: number): void;
  scissor(x: number, y: number, width: number, height: number): void;
  clearColor(r: number, g: number, b: number, a: number): void;
  clear(mask: number): void;
  colorMask(r: boolean, g: boolean, b: boolean, a: boolean): void;
  blendFunc(sfactor: number, dfactor: number): void;
  blendFuncSeparate(srcRGB: number, dstRGB: number, srcAlpha: number, dstAlpha: number): void;
  blendEquation(mode: number): void;
  pixelStorei(pname: number, param: number | boolean): void;
  flush(): void;
  finish(): void;

  createBuffer(): WebGLBuffer | null;
  deleteBuffer(buffer: WebGLBuffer | null): void;
  bindBuffer(target: number, buffer: WebGLBuffer | null): void;
  bufferData(target: number, data: ArrayBufferView | ArrayBuffer | number, usage: number): void;
  bufferSubData(target: number, offset: number, data: ArrayBufferView | ArrayBuffer): void;

  createTexture(): WebGLTexture | null;
  deleteTexture(texture: WebGLTexture | null): void;
  bindTexture(target: number, texture: WebGLTexture | null): void;
  activeTexture(unit: number): void;
  texParameteri(target: number, pname: number, param: number): void;
  texImage2D(
    target: number,
    level: number,
    internalformat: number,
    width: number,
    height: number,
    border: number,
    format: number,
    type: number,
    pixels: ArrayBufferView | null,
  ): void;
  texSubImage2D(
    target: number,
    level: number,
    xoffset: number,
    yoffset: number,
    width: number,
    height: number,
    format: number,
    type: number,
    pixels: ArrayBufferView | null,
  ): void;
  copyTexImage2D(
    target: number,
    level: number,
    internalformat: number,
    x: number,
    y: number,
    width: number,
    height: number,
    border: number,
  ): void;
  generateMipmap(target: number): void;

  createFramebuffer(): WebGLFramebuffer | null;
  deleteFramebuffer(framebuffer: WebGLFramebuffer | null): void;
  bindFramebuffer(target: number, framebuffer: WebGLFramebuffer | null): void;
  framebufferTexture2D(target: number, attachment: number, textarget: number, texture: WebGLTexture | null, level: number): void;
  framebufferRenderbuffer(target: number, attachment: number, rbtarget: number, rb: WebGLRenderbuffer | null): void;
  checkFramebufferStatus(target: number): number;
  createRenderbuffer(): WebGLRenderbuffer | null;
  deleteRenderbuffer(renderbuffer: WebGLRenderbuffer | null): void;
  bindRenderbuffer(target: number, renderbuffer: WebGLRenderbuffer | null): void;
  renderbufferStorage(target: number, internalformat: number, width: number, height: number): void;
  readPixels(x: number, y: number, width: number, height: number, format: number, type: number, pixels: ArrayBufferView | null): void;

  createShader(type: number): WebGLShader | null;
  deleteShader(shader: WebGLShader | null): void;
  shaderSource(shader: WebGLShader, source: string): void;
  compileShader(shader: WebGLShader): void;
  getShaderParameter(shader: WebGLShader, pname: number): unknown;
  getShaderInfoLog(shader: WebGLShader): string | null;
  createProgram(): WebGLProgram | null;
  deleteProgram(program: WebGLProgram | null): void;
  attachShader(program: WebGLProgram, shader: WebGLShader): void;
  detachShader(program: WebGLProgram, shader: WebGLShader): void;
  bindAttribLocation(program: WebGLProgram, index: number, name: string): void;
  linkProgram(program: WebGLProgram): void;
  useProgram(program: WebGLProgram | null): void;
  getProgramParameter(program: WebGLProgram, pname: number): unknown;
  getProgramInfoLog(program: WebGLProgram): string | null;
  getAttribLocation(program: WebGLProgram, name: string): number;
  getUniformLocation(program: WebGLProgram, name: string): WebGLUniformLocation | null;
  getActiveUniform(program: WebGLProgram, index: number): WebGLActiveInfo | null;

  enableVertexAttribArray(index: number): void;
  disableVertexAttribArray(index: number): void;
  vertexAttribPointer(index: number, size: number, type: number, normalized: boolean, stride: number, offset: number): void;
  drawArrays(mode: number, first: number, count: number): void;
  drawElements(mode: number, count: number, type: number, offset: number): void;

  uniform1f(loc: WebGLUniformLocation | null, x: number): void;
  uniform2f(loc: WebGLUniformLocation | null, x: number, y: number): void;
  uniform3f(loc: WebGLUniformLocation | null, x: number, y: number, z: number): void;
  uniform4f(loc: WebGLUniformLocation | null, x: number, y: number, z: number, w: number): void;
  uniform1i(loc: WebGLUniformLocation | null, x: number): void;
  uniform2i(loc: WebGLUniformLocation | null, x: number, y: number): void;
  uniform1fv(loc: WebGLUniformLocation | null, v: GLFloatList): void;
  uniform2fv(loc: WebGLUniformLocation | null, v: GLFloatList): void;
  uniform3fv(loc: WebGLUniformLocation | null, v: GLFloatList): void;
  uniform4fv(loc: WebGLUniformLocation | null, v: GLFloatList): void;
  uniform1iv(loc: WebGLUniformLocation | null, v: GLIntList): void;
  uniformMatrix3fv(loc: WebGLUniformLocation | null, transpose: boolean, v: GLFloatList): void;
  uniformMatrix4fv(loc: WebGLUniformLocation | null, transpose: boolean, v: GLFloatList): void;

  // Constants (the subset vjd uses; values are the WebGL 1 enums, read from the context at run time).
  readonly DEPTH_BUFFER_BIT: number;
  readonly COLOR_BUFFER_BIT: number;
  readonly TRIANGLES: number;
  readonly TRIANGLE_STRIP: number;
  readonly BLEND: number;
  readonly DEPTH_TEST: number;
  readonly SCISSOR_TEST: number;
  readonly CULL_FACE: number;
  readonly STENCIL_TEST: number;
  readonly DITHER: number;
  readonly ZERO: number;
  readonly ONE: number;
  readonly SRC_ALPHA: number;
  readonly ONE_MINUS_SRC_ALPHA: number;
  readonly FUNC_ADD: number;
  readonly NO_ERROR: number;
  readonly ARRAY_BUFFER: number;
  readonly ELEMENT_ARRAY_BUFFER: number;
  readonly STATIC_DRAW: number;
  readonly DYNAMIC_DRAW: number;
  readonly STREAM_DRAW: number;
  readonly FLOAT: number;
  readonly UNSIGNED_BYTE: number;
  readonly UNSIGNED_SHORT: number;
  readonly RGBA: number;
  readonly RGB: number;
  readonly ALPHA: number;
  readonly LUMINANCE: number;
  readonly FRAGMENT_SHADER: number;
  readonly VERTEX_SHADER: number;
  readonly COMPILE_STATUS: number;
  readonly LINK_STATUS: number;
  readonly ACTIVE_UNIFORMS: number;
  readonly MAX_TEXTURE_SIZE: number;
  readonly MAX_TEXTURE_IMAGE_UNITS: number;
  readonly MAX_VIEWPORT_DIMS: number;
  readonly VERSION: number;
  readonly RENDERER: number;
  readonly VENDOR: number;
  readonly SHADING_LANGUAGE_VERSION: number;
  readonly TEXTURE_2D: number;
  readonly TEXTURE0: number;
  readonly TEXTURE_MAG_FILTER: number;
  readonly TEXTURE_MIN_FILTER: number;
  readonly TEXTURE_WRAP_S: number;
  readonly TEXTURE_WRAP_T: number;
  readonly NEAREST: number;
  readonly LINEAR: number;
  readonly CLAMP_TO_EDGE: number;
  readonly REPEAT: number;
  readonly UNPACK_ALIGNMENT: number;
  readonly PACK_ALIGNMENT: number;
  readonly UNPACK_FLIP_Y_WEBGL: number;
  readonly UNPACK_PREMULTIPLY_ALPHA_WEBGL: number;
  readonly FRAMEBUFFER: number;
  readonly RENDERBUFFER: number;
  readonly COLOR_ATTACHMENT0: number;
  readonly DEPTH_ATTACHMENT: number;
  readonly FRAMEBUFFER_COMPLETE: number;
  readonly FRAMEBUFFER_BINDING: number;
  readonly RGBA4: number;
  readonly DEPTH_COMPONENT16: number;
}

declare module 'gl' {
  /** Creates a headless WebGL 1 context (null when no display/GLX is available, despite the type). */
  export default function createGL(width: number, height: number, options?: WebGLContextAttributes): WebGLRenderingContext;
}
