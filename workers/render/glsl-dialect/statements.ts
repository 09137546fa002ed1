// Walks the statements of a parsed shader with their scopes: declarations and returns get their declared type,
// expressions are typed (and converted) by the Typer, and an int loop index compared with a float bound keeps
// GLSL ES 1.00's loop form (`i < int(ceil(bound))`).
import type { AstNode, Program } from '@shaderfrog/glsl-parser/ast/ast-types.js';
import { call, construct, convertTo } from './convert.js';
import type { Typer } from './expressions.js';
import type { FunctionSig, Scope } from './scope.js';
import { baseOf, isType, type Ty } from './types.js';

type Node = AstNode & Record<string, unknown>;

/** The type a type specifier names (`T[]` with an array quantifier); records a struct it defines. */
function specified(spec: Node | undefined, scope: Scope): Ty {
  if (!spec) return null;
  const s = spec.specifier as Node;
  let name: string | null = null;
  if (s.type === 'keyword') name = s.token as string;
  else if (s.type === 'type_name' || s.type === 'identifier') name = s.identifier as string;
  else if (s.type === 'struct') {
    name = (s.typeName as { identifier: string }).identifier;
    const fields = new Map<string, Ty>();
    for (const d of s.declarations as Node[]) {
      const decl = d.declaration as Node;
      const t = specified((decl.specified_type as Node).specifier as Node, scope);
      for (const q of decl.declarations as Node[]) fields.set((q.identifier as { identifier: string }).identifier, t);
    }
    scope.structs.set(name, fields);
  }
  if (name === null || (!isType(name) && !scope.structs.has(name) && !name.startsWith('sampler'))) return null;
  return (spec.quantifier as unknown[] | null)?.length ? `${name}[]` : name;
}

function signature(proto: Node, scope: Scope): { name: string; sig: FunctionSig; params: Array<[string, Ty]> } {
  const header = proto.header as Node;
  const params: Array<[string, Ty]> = [];
  for (const p of (proto.parameters as Node[] | null) ?? []) {
    const t = specified(p.specifier as Node, scope);
    const id = (p.identifier as { identifier?: string } | null)?.identifier;
    if (t === 'void' && !id) continue;
    params.push([id ?? '', (p.quantifier as unknown[] | null)?.length ? `${t}[]` : t]);
  }
  const result = specified((header.returnType as Node).specifier as Node, scope);
  return { name: (header.name as { identifier: string }).identifier, sig: { result, params: params.map((p) => p[1]) }, params };
}

/** Types `#define NAME 1.5`, `#define NAME 3` and `#define NAME vec3(…)` (the uses are plain identifiers). */
function defineType(line: string): [string, Ty] | null {
  const words = line.replace('#', ' ').trim().split(/\s+/);
  if (words[0] !== 'define' || words.length < 3 || words[1]!.includes('(')) return null;
  const body = words.slice(2).join(' ');
  const open = body.indexOf('(');
  if (open > 0 && isType(body.slice(0, open))) return [words[1]!, body.slice(0, open)];
  if (words.length !== 3) return null;
  const num = Number(body);
  if (!Number.isFinite(num) || body.startsWith('0x')) return null;
  return [words[1]!, /[.eE]/.test(body) ? 'float' : 'int'];
}

export class Walker {
  private result: Ty = null;

  constructor(private readonly typer: Typer) {}

  program(program: Program, scope: Scope): void {
    // Functions first: a prototype may come after a call in a sloppy file, and the compiler reports that itself.
    for (const s of program.program as Node[]) {
      const proto =
        s.type === 'function'
          ? (s.prototype as Node)
          : (s.declaration as Node | undefined)?.type === 'function_prototype'
            ? (s.declaration as Node)
            : null;
      if (proto) {
        const { name, sig } = signature(proto, scope);
        scope.addFunction(name, sig);
      }
    }
    for (const s of program.program as Node[]) this.statement(s, scope);
  }

  private statement(s: Node | null | undefined, scope: Scope): void {
    if (!s) return;
    switch (s.type) {
      case 'preprocessor': {
        const d = defineType(s.line as string);
        if (d) scope.declare(d[0], d[1]);
        return;
      }
      case 'function': {
        const inner = scope.child();
        const { sig, params } = signature(s.prototype as Node, scope);
        for (const [name, t] of params) if (name) inner.declare(name, t);
        this.result = sig.result;
        this.statements((s.body as Node).statements as Node[], inner);
        this.result = null;
        return;
      }
      case 'declaration_statement':
        return this.declaration(s.declaration as Node, scope);
      case 'expression_statement':
        this.typer.type(s.expression as Node, scope);
        return;
      case 'compound_statement':
        return this.statements(s.statements as Node[], scope.child());
      case 'if_statement':
        this.typer.type(s.condition as Node, scope);
        this.statement(s.body as Node, scope.child());
        for (const e of (s.else as Node[] | null) ?? []) if (e.type !== 'keyword') this.statement(e, scope.child());
        return;
      case 'for_statement':
        return this.loop(s, scope.child());
      case 'while_statement':
        this.typer.type(s.condition as Node, scope);
        return this.statement(s.body as Node, scope.child());
      case 'do_statement':
        this.statement(s.body as Node, scope.child());
        this.typer.type(s.expression as Node, scope);
        return;
      case 'return_statement': {
        const e = s.expression as Node | undefined;
        const converted = e ? convertTo(e, this.typer.type(e, scope), this.result, this.typer.edits) : null;
        if (converted) (s as Record<string, unknown>).expression = converted;
        return;
      }
      default:
        return;
    }
  }

  private statements(list: Node[], scope: Scope): void {
    for (const s of list) this.statement(s, scope);
  }

  private declaration(d: Node, scope: Scope): void {
    if (d.type !== 'declarator_list') return;
    const t = specified((d.specified_type as Node).specifier as Node, scope);
    for (const decl of d.declarations as Node[]) {
      const own = (decl.quantifier as unknown[] | null)?.length ? `${t}[]` : t;
      const init = decl.initializer as Node | undefined;
      if (init) {
        const converted = convertTo(init, this.typer.type(init, scope), own, this.typer.edits);
        if (converted) decl.initializer = converted;
      }
      scope.declare((decl.identifier as { identifier: string }).identifier, own);
    }
  }

  private loop(s: Node, scope: Scope): void {
    const init = s.init as Node | undefined;
    if (init?.type === 'declarator_list') this.declaration(init, scope);
    else if (init?.type === 'declaration_statement') this.declaration(init.declaration as Node, scope);
    else this.typer.type(init?.type === 'expression_statement' ? (init.expression as Node) : init, scope);
    const c = s.condition as Node | undefined;
    if (c?.type === 'binary' && c.left && (c.left as Node).type === 'identifier') this.bound(c, scope);
    else this.typer.type(c, scope);
    this.typer.type(s.operation as Node, scope);
    this.statement(s.body as Node, scope.child());
  }

  /** `i < x` with an int index and a float bound: the bound becomes the int that keeps the same iterations. */
  private bound(c: Node, scope: Scope): void {
    const op = (c.operator as { literal: string }).literal;
    const tl = this.typer.type(c.left as Node, scope);
    const tr = this.typer.type(c.right as Node, scope);
    const round = op === '<' || op === '>=' ? 'ceil' : op === '<=' || op === '>' ? 'floor' : null;
    if (tl === 'int' && baseOf(tr) === 'float' && tr === 'float' && round) {
      c.right = construct('int', call(round, c.right as Node));
      this.typer.edits.count++;
    } else if (tl !== 'int' || tr !== 'int') this.typer.unify(c, 'left', 'right', scope, 0);
  }
}
