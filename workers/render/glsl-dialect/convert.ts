// AST edits of the dialect rewrite: an int literal becomes a float literal, any other expression is wrapped in a
// constructor of the wanted type. New nodes carry no whitespace, so every line stays where the file had it.
import type { AstNode } from '@shaderfrog/glsl-parser/ast/ast-types.js';
import { baseOf, withBase, type Base, type Ty } from './types.js';

/** Counts the edits of one rewrite (the log and the tests read it). */
export interface Edits {
  count: number;
}

const literal = (text: string): AstNode => ({ type: 'literal', literal: text, whitespace: '' }) as AstNode;

/** `type(node)`: a constructor call around `node`. */
export function construct(type: string, node: AstNode): AstNode {
  return {
    type: 'function_call',
    identifier: { type: 'type_specifier', specifier: { type: 'keyword', token: type, whitespace: '' }, quantifier: null },
    lp: literal('('),
    args: [node],
    rp: literal(')'),
  } as unknown as AstNode;
}

/** A decimal int literal that reads the same with `.0` appended (`0`, `12`; not octal `012` or hex). */
function plainDecimal(token: string): boolean {
  if (token.length === 0 || (token.length > 1 && token[0] === '0')) return false;
  for (const ch of token) if (ch < '0' || ch > '9') return false;
  return true;
}

/** `name(node)`: a call of a built-in function around `node`. */
export function call(name: string, node: AstNode): AstNode {
  return {
    type: 'function_call',
    identifier: { type: 'identifier', identifier: name, whitespace: '' },
    lp: literal('('),
    args: [node],
    rp: literal(')'),
  } as unknown as AstNode;
}

/** `node` (of type `from`) as the same shape with `base` components, or null when that is no conversion GLSL has. */
export function convert(node: AstNode, from: Ty, base: Base, edits: Edits): AstNode | null {
  const to = withBase(from, base);
  // Desktop GLSL converts ints to floats implicitly, never bools.
  if (to === null || to === from || baseOf(from) === 'bool') return null;
  edits.count++;
  if (node.type === 'int_constant' && base === 'float' && plainDecimal(node.token)) {
    const n = node as unknown as { type: string; token: string };
    n.type = 'float_constant';
    n.token = `${n.token}.0`;
    return node;
  }
  return construct(to, node);
}

/** `node` of type `from` as type `to` (both scalars or vectors of one size), or null when none is needed or known. */
export function convertTo(node: AstNode, from: Ty, to: Ty, edits: Edits): AstNode | null {
  if (from === null || to === null || from === to) return null;
  const base = to === 'float' || to.startsWith('vec') ? 'float' : to === 'int' || to.startsWith('ivec') ? 'int' : null;
  if (base === null || withBase(from, base) !== to) return null;
  return convert(node, from, base, edits);
}
