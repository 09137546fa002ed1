// Types the expressions of a shader bottom-up and converts an int operand where desktop GLSL would convert it
// implicitly (mixed arithmetic and comparisons, int arguments of float built-ins and of user functions).
import type { AstNode } from '@shaderfrog/glsl-parser/ast/ast-types.js';
import { ISF_DIALECT_LIMITS } from '../../../src/shared/isf-dialect.js';
import { convert, convertTo, type Edits } from './convert.js';
import type { Scope } from './scope.js';
import { arithmetic, baseOf, builtin, indexed, isType, swizzle, withBase, type Ty } from './types.js';

/** Thrown past a bound of ISF_DIALECT_LIMITS: the rewrite gives up and the original error stands. */
export class TooBig extends Error {}

type Node = AstNode & Record<string, unknown>;
const ARITHMETIC = new Set(['+', '-', '*', '/']);
const COMPARISON = new Set(['<', '>', '<=', '>=', '==', '!=']);
const LOGICAL = new Set(['&&', '||', '^^']);

/** Argument nodes of a call (the parser keeps the commas among them). */
export const argsOf = (call: Node): Node[] => (call.args as Node[]).filter((a) => !(a.type === 'literal' && a.literal === ','));

export class Typer {
  private nodes = 0;

  constructor(readonly edits: Edits) {}

  /** The type of `node` (null when unknown); converts inside it where needed. */
  type(node: AstNode | null | undefined, scope: Scope, depth = 0): Ty {
    if (!node) return null;
    if (++this.nodes > ISF_DIALECT_LIMITS.nodesMax || depth > ISF_DIALECT_LIMITS.depthMax) throw new TooBig();
    const n = node as Node;
    const d = depth + 1;
    switch (node.type) {
      case 'int_constant':
        return 'int';
      case 'float_constant':
        return 'float';
      case 'bool_constant':
        return 'bool';
      case 'identifier':
        return scope.lookup(node.identifier);
      case 'group':
        return this.type(node.expression, scope, d);
      case 'unary': {
        const t = this.type(node.expression, scope, d);
        return node.operator.literal === '!' ? 'bool' : t;
      }
      case 'postfix':
        return this.postfix(n, scope, d);
      case 'binary':
        return this.binary(n, scope, d);
      case 'assignment':
        return this.assignment(n, scope, d);
      case 'ternary': {
        this.type(node.expression, scope, d);
        return this.unify(n, 'left', 'right', scope, d);
      }
      case 'function_call':
        return this.call(n, scope, d);
      default:
        return null;
    }
  }

  /** Makes `n[a]` and `n[b]` one base when one is int and the other float; returns the float side's type. */
  unify(n: Node, a: string, b: string, scope: Scope, depth: number): Ty {
    let ta = this.type(n[a] as Node, scope, depth);
    let tb = this.type(n[b] as Node, scope, depth);
    const ba = baseOf(ta);
    const bb = baseOf(tb);
    if (ba === 'float' && bb === 'int') tb = this.swap(n, b, tb);
    else if (ba === 'int' && bb === 'float') ta = this.swap(n, a, ta);
    return ta === tb ? ta : null;
  }

  /** Replaces int-based `n[key]` (of type t) by its float conversion; returns the new type. */
  private swap(n: Node, key: string, t: Ty): Ty {
    const converted = convert(n[key] as Node, t, 'float', this.edits);
    if (!converted) return t;
    n[key] = converted;
    return withBase(t, 'float');
  }

  private postfix(n: Node, scope: Scope, d: number): Ty {
    const t = this.type(n.expression as Node, scope, d);
    const p = n.postfix as Node;
    if (p.type === 'field_selection') {
      const sel = (p.selection as { identifier?: string }).identifier ?? '';
      const fields = t === null ? undefined : scope.structs.get(t);
      return fields ? (fields.get(sel) ?? null) : swizzle(t, sel);
    }
    if (p.type === 'quantifier') {
      this.type(p.expression as Node, scope, d);
      return indexed(t);
    }
    return p.type === 'literal' ? t : null;
  }

  private binary(n: Node, scope: Scope, d: number): Ty {
    const op = (n.operator as { literal: string }).literal;
    if (ARITHMETIC.has(op)) {
      let tl = this.type(n.left as Node, scope, d);
      let tr = this.type(n.right as Node, scope, d);
      const bl = baseOf(tl);
      const br = baseOf(tr);
      if (bl === 'float' && br === 'int') tr = this.swap(n, 'right', tr);
      else if (bl === 'int' && br === 'float') tl = this.swap(n, 'left', tl);
      return baseOf(tl) === baseOf(tr) ? arithmetic(op, tl, tr) : null;
    }
    if (COMPARISON.has(op)) {
      this.unify(n, 'left', 'right', scope, d);
      return 'bool';
    }
    const tl = this.type(n.left as Node, scope, d);
    const tr = this.type(n.right as Node, scope, d);
    if (LOGICAL.has(op)) return 'bool';
    return op === ',' ? tr : tl;
  }

  private assignment(n: Node, scope: Scope, d: number): Ty {
    const op = (n.operator as { literal: string }).literal;
    const tl = this.type(n.left as Node, scope, d);
    const tr = this.type(n.right as Node, scope, d);
    const converted =
      op === '='
        ? convertTo(n.right as Node, tr, tl, this.edits)
        : baseOf(tl) === 'float' && baseOf(tr) === 'int'
          ? convert(n.right as Node, tr, 'float', this.edits)
          : null;
    if (converted) n.right = converted;
    return tl;
  }

  private call(n: Node, scope: Scope, d: number): Ty {
    const args = argsOf(n);
    const types = args.map((a) => this.type(a, scope, d));
    const id = n.identifier as Node;
    // The parser names a constructor and a call of the file's own function alike (a type specifier).
    let name = '';
    if (id.type === 'type_specifier') {
      if (id.quantifier) return null;
      const spec = id.specifier as Node;
      name = String(spec.token ?? spec.identifier ?? '');
      const fields = scope.structs.get(name);
      if (fields) [...fields.values()].forEach((f, i) => this.convertArg(n, args, types, i, f));
      if (fields || isType(name)) return name || null;
    } else if (id.type === 'identifier') name = id.identifier as string;
    else return null;
    const overloads = (scope.functions.get(name) ?? []).filter((f) => f.params.length === args.length);
    if (overloads.length > 0) {
      const exact = overloads.find((f) => f.params.every((p, i) => p === types[i]));
      if (exact) return exact.result;
      if (overloads.length > 1) return null;
      overloads[0]!.params.forEach((p, i) => this.convertArg(n, args, types, i, p));
      return overloads[0]!.result;
    }
    const b = builtin(name);
    if (!b) return null;
    if (b.floatArgs) {
      for (let i = b.floatArgs.from; i < args.length; i++) {
        if (baseOf(types[i] ?? null) === 'int') this.convertArg(n, args, types, i, withBase(types[i]!, 'float'));
      }
    }
    return b.result(types);
  }

  /** Converts argument i of call `n` to type `want` where the rewrite knows how. */
  private convertArg(n: Node, args: Node[], types: Ty[], i: number, want: Ty): void {
    const arg = args[i];
    if (!arg) return;
    const converted = convertTo(arg, types[i] ?? null, want, this.edits);
    if (!converted) return;
    const all = n.args as Node[];
    all[all.indexOf(arg)] = converted as Node;
    types[i] = want;
  }
}
