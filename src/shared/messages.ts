// Every message that crosses a thread boundary, typed: one protocol file per worker under protocol/, which both
// sides of that boundary import. Frames never travel in messages; they live in SharedArrayBuffers
// (src/shared/frame-ring.ts). What they share (logs, failures) is in protocol/common.ts. This index re-exports them
// all for code that speaks to several workers.
export * from './protocol/common.js';
export * from './protocol/render.js';
export * from './protocol/ingest.js';
export * from './protocol/encode.js';
export * from './protocol/output.js';
export * from './protocol/audio.js';
export * from './protocol/pixelout.js';
