// The bounds of the desktop-GLSL rewrite, re-exported for the render worker (workers/ read src/ only through here).
export { ISF_DIALECT_LIMITS } from '../limits.js';
