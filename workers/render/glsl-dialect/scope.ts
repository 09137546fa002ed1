// Names the dialect rewrite knows while it walks a shader: variables per block, functions, structs, and what ISF and
// vjd declare for every shader (built-in uniforms, the header's inputs, GLSL's own variables).
import { isSamplerInput, type IsfDescriptor } from '../../../src/shared/isf-types.js';
import { BUILTIN_UNIFORMS } from '../isf-builtins.js';
import { GLSL_TYPE } from '../isf-glsl.js';
import type { Ty } from './types.js';

export interface FunctionSig {
  result: Ty;
  params: Ty[];
}

const GLSL_VARIABLES: Record<string, string> = {
  gl_FragCoord: 'vec4',
  gl_FragColor: 'vec4',
  gl_FragData: 'vec4[]',
  gl_PointCoord: 'vec2',
  gl_FrontFacing: 'bool',
  gl_Position: 'vec4',
  gl_PointSize: 'float',
  isf_FragNormCoord: 'vec2',
  vv_FragNormCoord: 'vec2',
};

/** `uniform float TIME;` → ['TIME', 'float']; `uniform vec3 PALETTE[8];` → ['PALETTE', 'vec3[]']. */
function declared(line: string): [string, string] | null {
  const words = line.replace(';', '').split(' ');
  if (words.length !== 3) return null;
  const name = words[2]!;
  const bracket = name.indexOf('[');
  return bracket < 0 ? [name, words[1]!] : [name.slice(0, bracket), `${words[1]}[]`];
}

export class Scope {
  private readonly vars = new Map<string, Ty>();

  constructor(
    readonly parent: Scope | null,
    /** Shared by every scope of one shader: GLSL ES 1.00 declares functions and structs at the top level only. */
    readonly functions: Map<string, FunctionSig[]> = new Map(),
    readonly structs: Map<string, Map<string, Ty>> = new Map(),
  ) {}

  child(): Scope {
    return new Scope(this, this.functions, this.structs);
  }

  declare(name: string, type: Ty): void {
    this.vars.set(name, type);
  }

  lookup(name: string): Ty {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name) ?? null;
    return null;
  }

  /** Whether `name` is a variable here (an unknown type still counts): a user's name shadows a built-in function. */
  has(name: string): boolean {
    for (let s: Scope | null = this; s; s = s.parent) if (s.vars.has(name)) return true;
    return false;
  }

  addFunction(name: string, sig: FunctionSig): void {
    const list = this.functions.get(name) ?? [];
    if (!list.some((f) => f.params.join() === sig.params.join())) list.push(sig);
    this.functions.set(name, list);
  }
}

/** The top-level scope of one stage of `desc`: everything vjd declares before the file's own code. */
export function isfScope(desc: IsfDescriptor): Scope {
  const scope = new Scope(null);
  for (const [name, type] of Object.entries(GLSL_VARIABLES)) scope.declare(name, type);
  for (const line of BUILTIN_UNIFORMS) {
    const d = declared(line);
    if (d) scope.declare(d[0], d[1]);
  }
  for (const input of desc.inputs) scope.declare(input.name, GLSL_TYPE[input.type]);
  for (const pass of desc.passes) if (pass.target) scope.declare(pass.target, 'sampler2D');
  for (const input of desc.inputs) if (isSamplerInput(input)) scope.declare(input.name, 'sampler2D');
  return scope;
}
