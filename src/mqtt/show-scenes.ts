// Show-level state a box must come back to (docs/show.md): the leader hears every command of the show and keeps,
// retained, the scene last recalled for each target (all, a group, a box). A box that (re)connects gets it from the
// broker and recalls the scene that names it most closely — itself, then its groups, then all — once, through the
// one dispatch. Only this state is retained, never a command, so nothing fires twice.
import { API_PREFIX } from '../http/route.js';
import { SHOW_LIMITS } from '../limits.js';
import { parseCommand } from './command.js';

const RECALL = `${API_PREFIX}/scenes/recall`;
const REF_MAX = 128;

/** A scene as a recall names it. */
export type SceneRef = { id: string } | { name: string };

export interface ShowScenesMessage {
  box: string;
  scenes: Record<string, SceneRef>;
  at: string;
}

export interface ShowScenesLink {
  publish(topic: string, payload: string, opts: { retain?: boolean; qos?: 0 | 1 }): boolean;
  subscribe(filter: string, handler: (topic: string, payload: Buffer, retained: boolean) => void): void;
}

function refOf(body: unknown): SceneRef | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.id === 'string' && b.id.length > 0 && b.id.length <= REF_MAX) return { id: b.id };
  if (typeof b.name === 'string' && b.name.trim().length > 0 && b.name.length <= REF_MAX) return { name: b.name };
  return null;
}

/** The scenes a retained payload holds, or null when it is not one (size, JSON, shape). */
export function parseScenes(payload: Buffer): Record<string, SceneRef> | null {
  if (payload.length > SHOW_LIMITS.stateMaxBytes * 4) return null;
  let v: unknown;
  try {
    v = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  const scenes = (v as { scenes?: unknown } | null)?.scenes;
  if (typeof scenes !== 'object' || scenes === null || Array.isArray(scenes)) return null;
  const out: Record<string, SceneRef> = {};
  for (const [target, ref] of Object.entries(scenes).slice(0, SHOW_LIMITS.boxesMax)) {
    const r = refOf(ref);
    if (r && target.length <= SHOW_LIMITS.nameMaxLength) out[target] = r;
  }
  return out;
}

export class ShowScenes {
  private scenes: Record<string, SceneRef> = {};

  constructor(
    private readonly root: string,
    private readonly box: string,
    private readonly groups: readonly string[],
    private readonly leader: boolean,
    private readonly link: ShowScenesLink,
    /** Recalls a scene here (POST /scenes/recall through the dispatch) unless it is the current one. */
    private readonly recall: (ref: SceneRef) => void,
  ) {}

  private get topic(): string {
    return `${this.root}/leader/show`;
  }

  start(): void {
    this.link.subscribe(this.topic, (_t, payload, retained) => this.heard(payload, retained));
  }

  /** The scene per target as this box knows it. */
  view(): Record<string, SceneRef> {
    return { ...this.scenes };
  }

  /** Leader (which hears every target's commands): a scene recall for a target is its state from now on. */
  command(topic: string, payload: Buffer, retained: boolean): void {
    if (retained || !this.leader) return;
    const target = topic.slice(`${this.root}/cmd/`.length);
    const parsed = parseCommand(payload);
    if (!parsed.ok || parsed.command.path !== RECALL) return;
    const ref = refOf(parsed.command.body);
    if (!ref) return;
    // A recall for every box replaces what groups and boxes had; a narrower one adds to it.
    if (target === 'all') this.scenes = { all: ref };
    else if (Object.keys(this.scenes).length < SHOW_LIMITS.boxesMax || target in this.scenes) this.scenes[target] = ref;
    const msg: ShowScenesMessage = { box: this.box, scenes: this.scenes, at: new Date().toISOString() };
    this.link.publish(this.topic, JSON.stringify(msg), { retain: true, qos: 1 });
  }

  /** The retained state arrives at each connect (the broker marks it retained then): the one moment it is applied. */
  private heard(payload: Buffer, retained: boolean): void {
    const scenes = parseScenes(payload);
    if (!scenes) return;
    if (this.leader) {
      // A restarted leader carries on from what it had published.
      if (retained && Object.keys(this.scenes).length === 0) this.scenes = scenes;
      return;
    }
    this.scenes = scenes;
    if (!retained) return;
    const ref = scenes[this.box] ?? this.groups.map((g) => scenes[g]).find((r) => r !== undefined) ?? scenes.all;
    if (ref) this.recall(ref);
  }
}
