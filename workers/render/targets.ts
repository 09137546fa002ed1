// Render targets (a texture with a framebuffer around it, owned by the handle that destroys it) and uploads of
// CPU frames into textures: the GL memory the render worker's stages draw into and read from.
import type { GL } from './gl-util.js';

export interface RenderTarget {
  texture: WebGLTexture;
  framebuffer: WebGLFramebuffer;
  width: number;
  height: number;
  /** True when the texture really holds floats (OES_texture_float present and renderable). */
  float: boolean;
  /** Deletes the framebuffer and the texture; the target must not be used afterwards. */
  destroy(): void;
}

// NPOT textures in WebGL 1 are only complete with CLAMP_TO_EDGE and no mipmaps.
function textureParams(gl: GL): void {
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

/** Sets a texture's min and mag filter (leaves it bound to TEXTURE_2D of the active unit). */
export function setFilter(gl: GL, texture: WebGLTexture, nearest: boolean): void {
  const f = nearest ? gl.NEAREST : gl.LINEAR;
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, f);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, f);
}

const floatSupport = new WeakMap<object, boolean>();

function hasFloatTextures(gl: GL): boolean {
  let ok = floatSupport.get(gl);
  if (ok === undefined) {
    // Linear filtering of float textures is a separate extension; without it a float target would sample black.
    ok = gl.getExtension('OES_texture_float') !== null && gl.getExtension('OES_texture_float_linear') !== null;
    floatSupport.set(gl, ok);
  }
  return ok;
}

/** A texture with a framebuffer around it, cleared to transparent black. Leaves that framebuffer bound. */
export function createTarget(gl: GL, width: number, height: number, opts: { float?: boolean } = {}): RenderTarget {
  const texture = gl.createTexture();
  const framebuffer = gl.createFramebuffer();
  if (!texture || !framebuffer) {
    gl.deleteTexture(texture);
    gl.deleteFramebuffer(framebuffer);
    throw new Error('createTexture/createFramebuffer failed (context lost?)');
  }
  gl.bindTexture(gl.TEXTURE_2D, texture);
  textureParams(gl);
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  let float = opts.float === true && hasFloatTextures(gl);
  for (;;) {
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, float ? gl.FLOAT : gl.UNSIGNED_BYTE, null);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE) break;
    if (!float) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.deleteFramebuffer(framebuffer);
      gl.deleteTexture(texture);
      throw new Error(`framebuffer ${width}x${height} is incomplete`);
    }
    // Float textures that cannot be rendered to: fall back to 8 bits rather than fail the effect.
    float = false;
  }
  gl.viewport(0, 0, width, height);
  gl.clearColor(0, 0, 0, 0);
  gl.clear(gl.COLOR_BUFFER_BIT);
  const destroy = (): void => {
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
  };
  return { texture, framebuffer, width, height, float, destroy };
}

const uploadedSize = new WeakMap<object, string>();

/**
 * Uploads top-down RGBA rows as-is (row 0 → t = 0): samplers of CPU-uploaded textures flip v.
 * Same size as last time → texSubImage2D (no reallocation); `pixels` may be a view on a SharedArrayBuffer.
 */
export function uploadRgba(gl: GL, texture: WebGLTexture, width: number, height: number, pixels: Uint8Array): void {
  if (pixels.length < width * height * 4) throw new Error(`uploadRgba: ${pixels.length} bytes for ${width}x${height}`);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  const key = `${width}x${height}`;
  if (uploadedSize.get(texture) === key) {
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  } else {
    textureParams(gl);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    uploadedSize.set(texture, key);
  }
}
