// Counts live GL objects per context (create*/delete* wrapped on the instance) so /status can reveal leaks.

export interface GlCounts {
  textures: number;
  programs: number;
  framebuffers: number;
  buffers: number;
  shaders: number;
  renderbuffers: number;
}

type Kind = keyof GlCounts;

const KINDS: ReadonlyArray<[Kind, string]> = [
  ['textures', 'Texture'],
  ['programs', 'Program'],
  ['framebuffers', 'Framebuffer'],
  ['buffers', 'Buffer'],
  ['shaders', 'Shader'],
  ['renderbuffers', 'Renderbuffer'],
];

interface Tracked {
  counts: GlCounts;
  // Live handles: deleting an unknown, null or already-deleted object must not move the count.
  live: WeakSet<object>;
}

const tracked = new WeakMap<object, Tracked>();

/** Starts counting on this context (idempotent); returns the same context. Objects created before are not counted. */
export function trackGl<T extends object>(gl: T): T {
  if (tracked.has(gl)) return gl;
  const state: Tracked = {
    counts: { textures: 0, programs: 0, framebuffers: 0, buffers: 0, shaders: 0, renderbuffers: 0 },
    live: new WeakSet(),
  };
  tracked.set(gl, state);
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const [kind, suffix] of KINDS) {
    const create = target[`create${suffix}`];
    const remove = target[`delete${suffix}`];
    if (typeof create !== 'function' || typeof remove !== 'function') continue;
    // Own-property wrappers shadow the prototype methods; `this` stays the context.
    target[`create${suffix}`] = function (this: unknown, ...args: unknown[]): unknown {
      const obj = create.apply(gl, args);
      if (obj !== null && typeof obj === 'object' && !state.live.has(obj)) {
        state.live.add(obj);
        state.counts[kind]++;
      }
      return obj;
    };
    target[`delete${suffix}`] = function (this: unknown, ...args: unknown[]): unknown {
      const obj = args[0];
      if (obj !== null && typeof obj === 'object' && state.live.has(obj)) {
        state.live.delete(obj);
        state.counts[kind]--;
      }
      return remove.apply(gl, args);
    };
  }
  return gl;
}

/** Live object counts of a tracked context (all zero for an untracked one). */
export function glCounts(gl: object): GlCounts {
  const state = tracked.get(gl);
  if (!state) return { textures: 0, programs: 0, framebuffers: 0, buffers: 0, shaders: 0, renderbuffers: 0 };
  return { ...state.counts };
}
