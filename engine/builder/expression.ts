/**
 * The small typed expression language of `derive` and `filter_rows`: text → tokens → a typed syntax tree → DuckDB
 * SQL. Text never reaches SQL: column names become quoted identifiers, strings escaped literals, numbers are
 * re-rendered from their parsed value, and only the closed list of {@link FUNCTIONS} can be called. Every node is
 * type-checked (number/text/bool/datetime) against the table's columns, so a formula that cannot run is refused
 * before anything runs, with the character where it went wrong.
 *
 * Grammar, loosest binding first:
 *   or → and → not → comparison (= == != <> < <= > >=, is [not] null) → + - → * / % → unary - → primary
 *   primary: number | 'text' | true | false | column | `column` | "column" | function(args) | ( expression )
 */
import { ColumnInfo, Dtype } from '../data/dtypes';
import { sqlIdent, sqlString } from '../data/duck';
import { ExpressionError } from './errors';
import { FUNCTIONS } from './expression-functions';

/** The types an expression's values have. */
export type ValueType = 'number' | 'text' | 'bool' | 'datetime';

export interface Typed {
  type: ValueType;
  /** For numbers: whether the value is whole (int64), so `a + b` of integer columns stays int64. */
  integer: boolean;
}

const TEXT: Typed = { type: 'text', integer: false };
const BOOL: Typed = { type: 'bool', integer: false };

/** A node of the typed syntax tree. */
export type TypedExpression = Typed &
  (
    | { kind: 'column'; name: string }
    | { kind: 'number'; value: number }
    | { kind: 'text'; value: string }
    | { kind: 'bool'; value: boolean }
    /** A 'YYYY-MM-DD[ HH:MM[:SS]]' text literal compared with a datetime. */
    | { kind: 'datetime'; value: string }
    | { kind: 'negate'; arg: TypedExpression }
    | { kind: 'not'; arg: TypedExpression }
    | { kind: 'is_null'; arg: TypedExpression; negated: boolean }
    | { kind: 'binary'; op: BinaryOp; left: TypedExpression; right: TypedExpression }
    | { kind: 'call'; fn: string; args: TypedExpression[] }
  );

type BinaryOp = '+' | '-' | '*' | '/' | '%' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** The expression type of a column of dtype `dtype`. */
export function valueTypeOf(dtype: Dtype): Typed {
  switch (dtype) {
    case 'int64':
      return { type: 'number', integer: true };
    case 'float64':
      return { type: 'number', integer: false };
    case 'bool':
      return { type: 'bool', integer: false };
    case 'datetime64':
      return { type: 'datetime', integer: false };
    default:
      return { type: 'text', integer: false };
  }
}

/** The dtype a derived column of this type gets (text: object; ingest's rule may make it a category). */
export function dtypeOf(t: Typed): Dtype {
  if (t.type === 'number') return t.integer ? 'int64' : 'float64';
  if (t.type === 'bool') return 'bool';
  if (t.type === 'datetime') return 'datetime64';
  return 'object';
}

/** The DuckDB type a derived column of this type is stored as (the canonical stored types). */
export function duckTypeOf(t: Typed): string {
  if (t.type === 'number') return t.integer ? 'BIGINT' : 'DOUBLE';
  if (t.type === 'bool') return 'BOOLEAN';
  if (t.type === 'datetime') return 'TIMESTAMP';
  return 'VARCHAR';
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { t: 'num'; v: number; integer: boolean; pos: number }
  | { t: 'str'; v: string; pos: number }
  /** A column name or function name; `quoted` names are always columns. */
  | { t: 'name'; v: string; quoted: boolean; pos: number }
  | { t: 'kw'; v: 'and' | 'or' | 'not' | 'is' | 'null' | 'true' | 'false'; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'end'; pos: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'is', 'null', 'true', 'false']);
const OPERATORS = ['==', '!=', '<>', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ','];
const NUMBER = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/;
const BARE_NAME = /^[\p{L}_][\p{L}\p{N}_]*/u;

/** Text up to the closing `quote`, a doubled quote standing for itself. */
function readQuoted(text: string, start: number, quote: string, what: string): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const j = text.indexOf(quote, i);
    if (j < 0) throw new ExpressionError(`unterminated ${what} starting at character ${start + 1}`, start);
    value += text.slice(i, j);
    if (text[j + 1] === quote) {
      value += quote;
      i = j + 2;
    } else {
      return { value, end: j + 1 };
    }
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const rest = text.slice(i);
    const num = NUMBER.exec(rest);
    if (num) {
      const v = Number(num[0]);
      if (!Number.isFinite(v)) throw new ExpressionError(`the number ${num[0]} is too large (character ${i + 1})`, i);
      tokens.push({ t: 'num', v, integer: /^\d+$/.test(num[0]) && Number.isSafeInteger(v), pos: i });
      i += num[0].length;
      continue;
    }
    if (ch === "'") {
      const q = readQuoted(text, i, "'", 'text');
      tokens.push({ t: 'str', v: q.value, pos: i });
      i = q.end;
      continue;
    }
    if (ch === '"' || ch === '`') {
      const q = readQuoted(text, i, ch, 'column name');
      tokens.push({ t: 'name', v: q.value, quoted: true, pos: i });
      i = q.end;
      continue;
    }
    const name = BARE_NAME.exec(rest);
    if (name) {
      const lower = name[0].toLowerCase();
      if (KEYWORDS.has(lower)) tokens.push({ t: 'kw', v: lower as 'and', pos: i });
      else tokens.push({ t: 'name', v: name[0], quoted: false, pos: i });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) throw new ExpressionError(`unexpected character ${JSON.stringify(ch)} at character ${i + 1}`, i);
    tokens.push({ t: 'op', v: op, pos: i });
    i += op.length;
  }
  tokens.push({ t: 'end', pos: text.length });
  return tokens;
}

// ---------------------------------------------------------------------------------------------------------------
// Parser

/** Deepest nesting accepted: DuckDB refuses expressions past depth 1,000, and formulas are short. */
const MAX_DEPTH = 64;
const DATETIME_LITERAL = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?$/;

class Parser {
  private i = 0;
  private depth = 0;
  private readonly byName: Map<string, ColumnInfo>;

  constructor(
    private readonly tokens: Token[],
    private readonly columns: ColumnInfo[],
  ) {
    this.byName = new Map(columns.map((c) => [c.name, c]));
  }

  parse(): TypedExpression {
    const e = this.or();
    const t = this.peek();
    if (t.t !== 'end') throw this.error(`unexpected ${describe(t)}`, t);
    return e;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private error(message: string, t: Token): ExpressionError {
    return new ExpressionError(`${message} at character ${t.pos + 1}`, t.pos);
  }

  private isKw(v: string): boolean {
    const t = this.peek();
    return t.t === 'kw' && t.v === v;
  }

  private isOp(...vs: string[]): boolean {
    const t = this.peek();
    return t.t === 'op' && vs.includes(t.v);
  }

  private expectOp(v: string): void {
    const t = this.next();
    if (t.t !== 'op' || t.v !== v) throw this.error(`expected "${v}" but found ${describe(t)}`, t);
  }

  private nested<T>(t: Token, fn: () => T): T {
    if (++this.depth > MAX_DEPTH) throw this.error(`the expression nests deeper than ${MAX_DEPTH} levels`, t);
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  private logical(op: 'and' | 'or', operand: () => TypedExpression): TypedExpression {
    let left = operand();
    while (this.isKw(op)) {
      const t = this.next();
      const right = operand();
      for (const [side, e] of [
        ['left', left],
        ['right', right],
      ] as const) {
        if (e.type !== 'bool') throw this.error(`"${op}" needs bool values but its ${side} side is a ${e.type}`, t);
      }
      left = { kind: 'binary', op, left, right, ...BOOL };
    }
    return left;
  }

  private or(): TypedExpression {
    return this.logical('or', () => this.and());
  }

  private and(): TypedExpression {
    return this.logical('and', () => this.not());
  }

  private not(): TypedExpression {
    if (!this.isKw('not')) return this.comparison();
    const t = this.next();
    const arg = this.nested(t, () => this.not());
    if (arg.type !== 'bool') throw this.error(`"not" needs a bool value, not a ${arg.type}`, t);
    return { kind: 'not', arg, ...BOOL };
  }

  private comparison(): TypedExpression {
    const left = this.additive();
    if (this.isKw('is')) {
      this.next();
      const negated = this.isKw('not');
      if (negated) this.next();
      const t = this.next();
      if (t.t !== 'kw' || t.v !== 'null') throw this.error(`expected "null" after "is" but found ${describe(t)}`, t);
      return { kind: 'is_null', arg: left, negated, ...BOOL };
    }
    if (!this.isOp('=', '==', '!=', '<>', '<', '<=', '>', '>=')) return left;
    const t = this.next() as Token & { v: string };
    const op: BinaryOp = t.v === '==' ? '=' : t.v === '<>' ? '!=' : (t.v as BinaryOp);
    const right = this.additive();
    const [l, r] = [asDatetimeIfNeeded(left, right, t, this), asDatetimeIfNeeded(right, left, t, this)];
    if (l.type !== r.type) throw this.error(`cannot compare a ${l.type} with a ${r.type}`, t);
    if (l.type === 'bool' && op !== '=' && op !== '!=') throw this.error(`bool values can only be compared with = or !=`, t);
    return { kind: 'binary', op, left: l, right: r, ...BOOL };
  }

  /** Exposed for {@link asDatetimeIfNeeded}. */
  fail(message: string, t: Token): never {
    throw this.error(message, t);
  }

  private additive(): TypedExpression {
    let left = this.multiplicative();
    while (this.isOp('+', '-')) {
      const t = this.next() as Token & { v: '+' | '-' };
      left = this.arithmetic(t, left, this.multiplicative());
    }
    return left;
  }

  private multiplicative(): TypedExpression {
    let left = this.unary();
    while (this.isOp('*', '/', '%')) {
      const t = this.next() as Token & { v: '*' | '/' | '%' };
      left = this.arithmetic(t, left, this.unary());
    }
    return left;
  }

  private arithmetic(t: Token & { v: string }, left: TypedExpression, right: TypedExpression): TypedExpression {
    for (const [side, e] of [
      ['left', left],
      ['right', right],
    ] as const) {
      if (e.type !== 'number') {
        const hint = t.v === '+' && e.type === 'text' ? ' (use concat(...) to join text)' : '';
        throw this.error(`"${t.v}" needs numbers but its ${side} side is a ${e.type}${hint}`, t);
      }
    }
    const integer = t.v !== '/' && left.integer && right.integer;
    return { kind: 'binary', op: t.v as BinaryOp, left, right, type: 'number', integer };
  }

  private unary(): TypedExpression {
    if (!this.isOp('-', '+')) return this.primary();
    const t = this.next() as Token & { v: string };
    const arg = this.nested(t, () => this.unary());
    if (arg.type !== 'number') throw this.error(`"${t.v}" needs a number, not a ${arg.type}`, t);
    return t.v === '+' ? arg : { kind: 'negate', arg, type: 'number', integer: arg.integer };
  }

  private primary(): TypedExpression {
    const t = this.next();
    switch (t.t) {
      case 'num':
        return { kind: 'number', value: t.v, type: 'number', integer: t.integer };
      case 'str':
        return { kind: 'text', value: t.v, ...TEXT };
      case 'kw':
        if (t.v === 'true' || t.v === 'false') return { kind: 'bool', value: t.v === 'true', ...BOOL };
        throw this.error(`unexpected ${describe(t)}`, t);
      case 'name':
        if (!t.quoted && this.isOp('(')) return this.call(t);
        return this.column(t);
      case 'op':
        if (t.v === '(') {
          const e = this.nested(t, () => this.or());
          this.expectOp(')');
          return e;
        }
        throw this.error(`unexpected ${describe(t)}`, t);
      default:
        throw this.error('the expression ends too early', t);
    }
  }

  private column(t: Token & { t: 'name' }): TypedExpression {
    const col = this.byName.get(t.v);
    if (!col) throw this.error(`no column named ${JSON.stringify(t.v)}${suggestion(t.v, this.columns)}`, t);
    return { kind: 'column', name: col.name, ...valueTypeOf(col.dtype) };
  }

  private call(t: Token & { t: 'name' }): TypedExpression {
    const fn = t.v.toLowerCase();
    const spec = Object.hasOwn(FUNCTIONS, fn) ? FUNCTIONS[fn] : undefined;
    if (!spec) throw this.error(`unknown function ${JSON.stringify(t.v)} (known: ${Object.keys(FUNCTIONS).join(', ')})`, t);
    this.expectOp('(');
    const args: TypedExpression[] = [];
    if (!this.isOp(')')) {
      do {
        args.push(this.nested(t, () => this.or()));
      } while (this.isOp(',') && this.next());
    }
    this.expectOp(')');
    if (args.length < spec.min || args.length > spec.max) {
      const want = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
      throw this.error(`${fn}() takes ${want} arguments, not ${args.length}`, t);
    }
    const result = spec.check(args);
    if (typeof result === 'string') throw this.error(`${fn}(): ${result}`, t);
    return { kind: 'call', fn, args, ...result };
  }
}

/** `e` as a datetime literal when it is a text literal compared with a datetime (`sold_at >= '2024-01-01'`). */
function asDatetimeIfNeeded(e: TypedExpression, other: TypedExpression, t: Token, p: Parser): TypedExpression {
  if (e.kind !== 'text' || other.type !== 'datetime') return e;
  if (!DATETIME_LITERAL.test(e.value) || Number.isNaN(Date.parse(e.value.replace(' ', 'T')))) {
    p.fail(`${JSON.stringify(e.value)} is not a date (write 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS')`, t);
  }
  return { kind: 'datetime', value: e.value, type: 'datetime', integer: false };
}

function describe(t: Token): string {
  switch (t.t) {
    case 'end':
      return 'the end of the expression';
    case 'str':
      return `the text ${JSON.stringify(t.v)}`;
    case 'num':
      return `the number ${t.v}`;
    default:
      return `"${t.v}"`;
  }
}

/** ` (did you mean "Age"?)` when a column differs only in case or surrounding spaces. */
export function suggestion(name: string, columns: readonly ColumnInfo[]): string {
  const key = name.trim().toLowerCase();
  const near = columns.find((c) => c.name.trim().toLowerCase() === key);
  return near ? ` (did you mean ${JSON.stringify(near.name)}?)` : '';
}

/**
 * Parses and type-checks `text` against `columns`.
 * @throws ExpressionError naming what is wrong and where (1-based character)
 */
export function parseExpression(text: string, columns: ColumnInfo[]): TypedExpression {
  if (text.trim() === '') throw new ExpressionError('the expression is empty', 0);
  return new Parser(tokenize(text), columns).parse();
}

/** Columns an expression reads, in first-use order. */
export function expressionColumns(expr: TypedExpression): string[] {
  const out = new Set<string>();
  const walk = (e: TypedExpression): void => {
    if (e.kind === 'column') out.add(e.name);
    else if (e.kind === 'negate' || e.kind === 'not' || e.kind === 'is_null') walk(e.arg);
    else if (e.kind === 'binary') [e.left, e.right].forEach(walk);
    else if (e.kind === 'call') e.args.forEach(walk);
  };
  walk(expr);
  return [...out];
}

const SQL_OPS: Record<BinaryOp, string> = {
  '+': '+',
  '-': '-',
  '*': '*',
  '/': '/',
  '%': '%',
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  and: 'AND',
  or: 'OR',
};

/** A finite number as a DuckDB literal of the right type (the value re-rendered, never the user's text). */
export function numberLiteral(value: number, integer: boolean): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return integer && Number.isSafeInteger(value) ? `CAST(${value} AS BIGINT)` : `CAST(${sqlString(String(value))} AS DOUBLE)`;
}

/**
 * DuckDB SQL for a typed expression. Division and `%` by zero give null (as a missing value) rather than
 * infinity or an error; ln/log10/sqrt outside their domain give null.
 */
export function compileExpression(expr: TypedExpression): string {
  switch (expr.kind) {
    case 'column':
      return sqlIdent(expr.name);
    case 'number':
      return numberLiteral(expr.value, expr.integer);
    case 'text':
      return sqlString(expr.value);
    case 'bool':
      return expr.value ? 'TRUE' : 'FALSE';
    case 'datetime':
      return `CAST(${sqlString(expr.value)} AS TIMESTAMP)`;
    case 'negate':
      return `(- ${compileExpression(expr.arg)})`;
    case 'not':
      return `(NOT ${compileExpression(expr.arg)})`;
    case 'is_null':
      return `(${compileExpression(expr.arg)} IS ${expr.negated ? 'NOT ' : ''}NULL)`;
    case 'binary': {
      const l = compileExpression(expr.left);
      const r = compileExpression(expr.right);
      if (expr.op === '/') return `(CAST(${l} AS DOUBLE) / NULLIF(CAST(${r} AS DOUBLE), 0))`;
      if (expr.op === '%') return `(${l} % NULLIF(${r}, 0))`;
      return `(${l} ${SQL_OPS[expr.op]} ${r})`;
    }
    case 'call':
      return FUNCTIONS[expr.fn].sql(expr.args.map(compileExpression), expr.args);
  }
}
