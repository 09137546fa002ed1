// Safe evaluator (no eval/Function) for ISF pass size expressions such as `floor($WIDTH/2.0)`.

type Node =
  | { k: 'num'; v: number }
  | { k: 'var'; name: string }
  | { k: 'neg'; a: Node }
  | { k: 'bin'; op: '+' | '-' | '*' | '/'; a: Node; b: Node }
  | { k: 'call'; fn: FnName; args: Node[] };

type FnName = 'floor' | 'ceil' | 'round' | 'min' | 'max' | 'abs' | 'pow' | 'sqrt';

// Arity per function: [min, max]; min/max take any number of arguments from 1 up.
const FUNCS: Record<FnName, [number, number]> = {
  floor: [1, 1],
  ceil: [1, 1],
  round: [1, 1],
  abs: [1, 1],
  sqrt: [1, 1],
  pow: [2, 2],
  min: [1, 16],
  max: [1, 16],
};

export class IsfExprError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IsfExprError';
  }
}

type Token = { t: 'num'; v: number; at: number } | { t: 'id'; v: string; at: number } | { t: 'op'; v: string; at: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    const id = /^\$?[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0], at: i });
      i += id[0].length;
      continue;
    }
    if ('+-*/(),'.includes(c)) {
      out.push({ t: 'op', v: c, at: i });
      i++;
      continue;
    }
    throw new IsfExprError(`unexpected character '${c}' at ${i} in "${src}"`);
  }
  return out;
}

/** Parses an expression once; the result can be evaluated many times with different variables. */
export function parseSizeExpr(src: string): Node {
  const toks = tokenize(src);
  let pos = 0;
  const peek = (): Token | undefined => toks[pos];
  const fail = (what: string): never => {
    const t = toks[pos];
    throw new IsfExprError(`${what} ${t ? `at ${t.at}` : 'at end'} in "${src}"`);
  };
  const isOp = (v: string): boolean => {
    const t = peek();
    return t !== undefined && t.t === 'op' && t.v === v;
  };
  const expect = (v: string): void => {
    if (!isOp(v)) fail(`expected '${v}'`);
    pos++;
  };

  function sum(): Node {
    let a = product();
    while (isOp('+') || isOp('-')) {
      const op = (toks[pos++] as Token).v as '+' | '-';
      a = { k: 'bin', op, a, b: product() };
    }
    return a;
  }
  function product(): Node {
    let a = unary();
    while (isOp('*') || isOp('/')) {
      const op = (toks[pos++] as Token).v as '*' | '/';
      a = { k: 'bin', op, a, b: unary() };
    }
    return a;
  }
  function unary(): Node {
    if (isOp('-')) {
      pos++;
      return { k: 'neg', a: unary() };
    }
    if (isOp('+')) {
      pos++;
      return unary();
    }
    return primary();
  }
  function primary(): Node {
    const t = peek();
    if (!t) return fail('unexpected end');
    if (t.t === 'num') {
      pos++;
      return { k: 'num', v: t.v };
    }
    if (t.t === 'op' && t.v === '(') {
      pos++;
      const inner = sum();
      expect(')');
      return inner;
    }
    if (t.t === 'id') {
      pos++;
      if (isOp('(')) {
        const fn = t.v as FnName;
        if (!Object.hasOwn(FUNCS, fn)) throw new IsfExprError(`unknown function '${t.v}' in "${src}"`);
        pos++;
        const args: Node[] = [];
        if (!isOp(')')) {
          args.push(sum());
          while (isOp(',')) {
            pos++;
            args.push(sum());
          }
        }
        expect(')');
        const [lo, hi] = FUNCS[fn];
        if (args.length < lo || args.length > hi)
          throw new IsfExprError(`${fn}() takes ${lo === hi ? lo : `${lo}+`} argument(s) in "${src}"`);
        return { k: 'call', fn, args };
      }
      return { k: 'var', name: t.v.startsWith('$') ? t.v.slice(1) : t.v };
    }
    return fail(`unexpected '${t.v}'`);
  }

  if (toks.length === 0) throw new IsfExprError('empty expression');
  const tree = sum();
  if (pos < toks.length) fail('unexpected token');
  return tree;
}

/** Names of the variables an expression reads (without the `$`). */
export function exprVariables(node: Node, into: Set<string> = new Set()): Set<string> {
  if (node.k === 'var') into.add(node.name);
  else if (node.k === 'neg') exprVariables(node.a, into);
  else if (node.k === 'bin') {
    exprVariables(node.a, into);
    exprVariables(node.b, into);
  } else if (node.k === 'call') for (const a of node.args) exprVariables(a, into);
  return into;
}

export function evalNode(node: Node, vars: Readonly<Record<string, number>>): number {
  switch (node.k) {
    case 'num':
      return node.v;
    case 'var': {
      const v = vars[node.name];
      if (v === undefined) throw new IsfExprError(`unknown variable '${node.name}'`);
      return v;
    }
    case 'neg':
      return -evalNode(node.a, vars);
    case 'bin': {
      const a = evalNode(node.a, vars);
      const b = evalNode(node.b, vars);
      return node.op === '+' ? a + b : node.op === '-' ? a - b : node.op === '*' ? a * b : a / b;
    }
    case 'call': {
      const xs = node.args.map((a) => evalNode(a, vars));
      if (node.fn === 'min') return Math.min(...xs);
      if (node.fn === 'max') return Math.max(...xs);
      if (node.fn === 'pow') return xs[0]! ** xs[1]!;
      return Math[node.fn](xs[0]!);
    }
  }
}

/** Parses and evaluates in one go; throws IsfExprError on bad syntax or unknown names. May return NaN/Infinity. */
export function evalSizeExpr(expr: string, vars: Readonly<Record<string, number>>): number {
  return evalNode(parseSizeExpr(expr), vars);
}

/** A pass dimension in pixels: rounded, NaN/Infinity → fallback, clamped to 1..8192. */
export function clampSize(v: number, fallback: number): number {
  const n = Number.isFinite(v) ? Math.round(v) : fallback;
  return Math.min(8192, Math.max(1, n));
}

export type SizeExpr = Node;
