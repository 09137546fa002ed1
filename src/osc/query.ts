// The OSCQuery description of the OSC address space (github.com/Vidvox/OSCQueryProposal): a JSON tree of nodes with
// FULL_PATH, CONTENTS, TYPE, ACCESS (1 read = sent as feedback, 2 write, 3 both), VALUE, RANGE and DESCRIPTION,
// so TouchOSC and Chataigne can discover the controls. Effect nodes follow the chain as it is now.
import { OSC_TABLE } from '../transports/addresses/table.js';

export interface OscQueryNode {
  FULL_PATH: string;
  DESCRIPTION?: string;
  CONTENTS?: Record<string, OscQueryNode>;
  TYPE?: string;
  ACCESS?: 0 | 1 | 2 | 3;
  VALUE?: unknown[];
  RANGE?: Array<{ MIN?: number; MAX?: number; VALS?: unknown[] }>;
}

interface ChainInput {
  name: string;
  label?: string;
  type: string;
  min?: unknown;
  max?: unknown;
  values?: number[];
  value?: unknown;
  /** Its modulator (null or absent: none); its amount and rate get nodes of their own. */
  modulator?: unknown;
}

export interface ChainItem {
  index: number;
  name: string;
  enabled: boolean;
  inputs: ChainInput[];
}

export interface HostInfo {
  NAME: string;
  /** Absent when OSC listens on every address: the client then uses the host it asked over HTTP (per the proposal). */
  OSC_IP?: string;
  OSC_PORT: number;
  OSC_TRANSPORT: 'UDP';
  EXTENSIONS: Record<string, boolean>;
}

export function hostInfo(name: string, host: string, port: number): HostInfo {
  return {
    NAME: name,
    ...(host === '0.0.0.0' || host === '::' ? {} : { OSC_IP: host }),
    OSC_PORT: port,
    OSC_TRANSPORT: 'UDP',
    EXTENSIONS: {
      ACCESS: true,
      VALUE: true,
      RANGE: true,
      DESCRIPTION: true,
      TAGS: false,
      CLIPMODE: false,
      UNIT: false,
      CRITICAL: false,
      LISTEN: false,
      PATH_CHANGED: false,
    },
  };
}

/** The tree: fixed addresses, then per chain item enabled/toggle/name and one node per settable scalar input. */
export function oscQueryTree(chain: ChainItem[]): OscQueryNode {
  const root: OscQueryNode = { FULL_PATH: '/', CONTENTS: {} };
  for (const { address, does, query: f } of OSC_TABLE) {
    if (!f) continue;
    put(root, address, {
      TYPE: f.type,
      ACCESS: f.access,
      DESCRIPTION: does,
      ...(f.range ? { RANGE: [{ MIN: f.range[0], MAX: f.range[1] }] } : {}),
    });
  }
  for (const item of chain) {
    const at = `/vjd/effects/${item.index}`;
    put(root, at, { DESCRIPTION: item.name });
    put(root, `${at}/enabled`, {
      TYPE: 'i',
      ACCESS: 3,
      VALUE: [item.enabled ? 1 : 0],
      RANGE: [{ MIN: 0, MAX: 1 }],
      DESCRIPTION: `${item.name}: visible`,
    });
    put(root, `${at}/toggle`, {
      TYPE: 'i',
      ACCESS: 2,
      RANGE: [{ MIN: 0, MAX: 1 }],
      DESCRIPTION: `${item.name}: toggle (1 fires, 0 is ignored)`,
    });
    put(root, `${at}/name`, { TYPE: 's', ACCESS: 1, VALUE: [item.name], DESCRIPTION: 'feedback only' });
    for (const input of item.inputs) {
      const node = inputNode(input);
      if (node) put(root, `${at}/${input.name}`, { ...node, DESCRIPTION: `${item.name}: ${input.label ?? input.name}` });
      modulatorNodes(root, `${at}/${input.name}`, input, item.name);
    }
  }
  return root;
}

/** Scalar inputs only (one argument each); a float is described 0..1 because that is what OSC sends and feeds back. */
function inputNode(i: ChainInput): Omit<OscQueryNode, 'FULL_PATH'> | null {
  if (i.type === 'float' && typeof i.min === 'number' && typeof i.max === 'number') {
    const v = typeof i.value === 'number' ? (i.max === i.min ? 0 : (i.value - i.min) / (i.max - i.min)) : undefined;
    return { TYPE: 'f', ACCESS: 3, RANGE: [{ MIN: 0, MAX: 1 }], ...(v !== undefined ? { VALUE: [v] } : {}) };
  }
  if (i.type === 'bool')
    return { TYPE: 'i', ACCESS: 3, RANGE: [{ MIN: 0, MAX: 1 }], ...(typeof i.value === 'boolean' ? { VALUE: [i.value ? 1 : 0] } : {}) };
  if (i.type === 'long')
    return {
      TYPE: 'i',
      ACCESS: 3,
      ...(i.values ? { RANGE: [{ VALS: i.values }] } : {}),
      ...(typeof i.value === 'number' ? { VALUE: [i.value] } : {}),
    };
  if (i.type === 'event') return { TYPE: 'i', ACCESS: 2, RANGE: [{ MIN: 0, MAX: 1 }] };
  return null;
}

/** An existing modulator's amount and, for the kinds that have one, its rate: OSC changes these, never creates one. */
function modulatorNodes(root: OscQueryNode, at: string, i: ChainInput, itemName: string): void {
  const m = i.modulator as { kind?: unknown; amount?: unknown; rate?: unknown } | null | undefined;
  if (m === null || typeof m !== 'object') return;
  const label = `${itemName}: ${i.label ?? i.name}`;
  put(root, `${at}/mod`, { DESCRIPTION: `${label}: ${String(m.kind)} modulator` });
  put(root, `${at}/mod/amount`, {
    TYPE: 'f',
    ACCESS: 2,
    RANGE: [{ MIN: -1, MAX: 1 }],
    ...(typeof m.amount === 'number' ? { VALUE: [m.amount] } : {}),
    DESCRIPTION: `${label}: modulation amount`,
  });
  if (m.kind === 'lfo' || m.kind === 'steps')
    put(root, `${at}/mod/rate`, {
      TYPE: 's',
      ACCESS: 2,
      ...(typeof m.rate === 'string' ? { VALUE: [m.rate] } : {}),
      DESCRIPTION: `${label}: modulation rate, a beat division (1/4, 1, 1/8d, 1/16t, …) or a float in Hz`,
    });
}

/** Places a node at its address, creating the container nodes on the way. */
function put(root: OscQueryNode, address: string, node: Omit<OscQueryNode, 'FULL_PATH'>): void {
  let at = root;
  const parts = address.split('/').slice(1);
  parts.forEach((part, k) => {
    at.CONTENTS ??= {};
    const path = `/${parts.slice(0, k + 1).join('/')}`;
    at = at.CONTENTS[part] ??= { FULL_PATH: path };
  });
  Object.assign(at, node);
}
