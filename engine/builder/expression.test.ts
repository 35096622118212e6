import { ColumnInfo } from '../data/dtypes';
import { queryRows, toJsonSafe, withConnection } from '../data/duck';
import { ExpressionError } from './errors';
import { compileExpression, expressionColumns, parseExpression } from './expression';

const columns: ColumnInfo[] = [
  { name: 'price', dtype: 'float64' },
  { name: 'carat', dtype: 'float64' },
  { name: 'qty', dtype: 'int64' },
  { name: 'name', dtype: 'object' },
  { name: 'color', dtype: 'category' },
  { name: 'sold_at', dtype: 'datetime64' },
  { name: 'bought_at', dtype: 'datetime64' },
  { name: 'ok', dtype: 'bool' },
  { name: 'unit price (€)', dtype: 'float64' },
  { name: 'x"; DROP TABLE t; --', dtype: 'int64' },
  { name: "it's", dtype: 'object' },
  { name: 'and', dtype: 'int64' },
];

/** The table the compiled SQL runs on: one row, one column per entry of `columns`. */
const ROW = `SELECT 10.0::DOUBLE AS price, 2.0::DOUBLE AS carat, 3::BIGINT AS qty, '  Ann Lee ' AS name, 'red' AS color,
  TIMESTAMP '2024-03-10 15:30:00' AS sold_at, TIMESTAMP '2024-03-01 16:00:00' AS bought_at, TRUE AS ok,
  4.5::DOUBLE AS "unit price (€)", 7::BIGINT AS "x""; DROP TABLE t; --", 'o''k' AS "it's", 1::BIGINT AS "and"`;

async function evaluate(text: string): Promise<unknown> {
  const sql = compileExpression(parseExpression(text, columns));
  return withConnection(async (conn) => toJsonSafe((await queryRows(conn, `SELECT ${sql} AS v FROM (${ROW})`))[0].v));
}

function typeOf(text: string): string {
  const e = parseExpression(text, columns);
  return e.type === 'number' ? (e.integer ? 'int' : 'float') : e.type;
}

function errorOf(text: string): string {
  try {
    parseExpression(text, columns);
  } catch (err) {
    expect(err).toBeInstanceOf(ExpressionError);
    return (err as Error).message;
  }
  throw new Error(`${text} parsed`);
}

describe('parseExpression and compileExpression', () => {
  test.each([
    ['price / carat', 5],
    ['qty * 2 + 1', 7],
    ['-qty + 10 % 4', -1],
    ['(qty + 1) * 2', 8],
    ['2 + 3 * 4 - 6 / 3', 12],
    ['price > 5 and not ok or qty = 3', true],
    ['qty / 0', null],
    ['qty % 0', null],
    ['sqrt(-1)', null],
    ['ln(0)', null],
    ['round(price / 3, 2)', 3.33],
    ['abs(-qty)', 3],
    ['floor(2.7) + ceil(2.1)', 5],
    ['pow(qty, 2)', 9],
    ['least(qty, 2, 5)', 2],
    ['greatest(price, carat)', 10],
    ['coalesce(qty, 0)', 3],
    ["if(qty > 2, 'many', 'few')", 'many'],
    ['upper(trim(name))', 'ANN LEE'],
    ['length(color)', 3],
    ["concat(color, '-', qty)", 'red-3'],
    ['substr(color, 2, 1)', 'e'],
    ["contains(name, 'Lee') and starts_with(color, 're')", true],
    ['year(sold_at) * 100 + month(sold_at)', 202403],
    ['day(sold_at) + hour(sold_at)', 25],
    ['weekday(sold_at)', 6],
    ['date_diff_days(sold_at, bought_at)', 8],
    ["sold_at >= '2024-03-10' and sold_at < '2024-03-10 16:00'", true],
    ['`unit price (€)` * 2', 9],
    ['"x""; DROP TABLE t; --" + 1', 8],
    ["`it's` = 'o''k'", true],
    ['"and" + 1', 2],
    ['name is not null and not (qty is null)', true],
    ['1e3 + .5', 1000.5],
  ])('%s evaluates to %p', async (text, expected) => {
    expect(await evaluate(text)).toEqual(expected);
  });

  test('types follow the operands: whole numbers stay whole until divided', () => {
    expect(typeOf('qty + 1')).toBe('int');
    expect(typeOf('qty / 1')).toBe('float');
    expect(typeOf('qty * 1.5')).toBe('float');
    expect(typeOf('year(sold_at)')).toBe('int');
    expect(typeOf("concat(qty, 'x')")).toBe('text');
    expect(typeOf('qty > 1')).toBe('bool');
    expect(typeOf('coalesce(sold_at, bought_at)')).toBe('datetime');
  });

  test('type errors name the operator or function and where', () => {
    expect(errorOf("price * 'a'")).toBe('"*" needs numbers but its right side is a text at character 7');
    expect(errorOf('name + color')).toMatch(/use concat/);
    expect(errorOf('qty and ok')).toMatch(/"and" needs bool values but its left side is a number/);
    expect(errorOf('not qty')).toMatch(/"not" needs a bool value, not a number/);
    expect(errorOf("qty = 'three'")).toMatch(/cannot compare a number with a text/);
    expect(errorOf('ok < true')).toMatch(/bool values can only be compared/);
    expect(errorOf('year(qty)')).toMatch(/year\(\): argument 1 must be a datetime, not a number/);
    expect(errorOf('if(qty, 1, 2)')).toMatch(/the condition\) must be a bool/);
    expect(errorOf("if(ok, 1, 'x')")).toMatch(/argument 2 is a text but argument 1 is a number/);
    expect(errorOf('round(price, 1.5)')).toMatch(/whole number/);
    expect(errorOf("sold_at > 'yesterday'")).toMatch(/"yesterday" is not a date/);
    expect(errorOf('abs(1, 2)')).toMatch(/abs\(\) takes 1 arguments, not 2/);
  });

  test('unknown columns, unknown functions and bad syntax are refused', () => {
    expect(errorOf('Price * 2')).toBe('no column named "Price" (did you mean "price"?) at character 1');
    expect(errorOf('agee + 1')).toBe('no column named "agee" at character 1');
    expect(errorOf('system(1)')).toMatch(/unknown function "system"/);
    expect(errorOf("read_csv('/etc/passwd')")).toMatch(/unknown function/);
    expect(errorOf('qty; DROP TABLE t')).toMatch(/unexpected character ";"/);
    expect(errorOf('qty +')).toMatch(/ends too early/);
    expect(errorOf('(qty')).toMatch(/expected "\)"/);
    expect(errorOf("'open")).toMatch(/unterminated text/);
    expect(errorOf('"open')).toMatch(/unterminated column name/);
    expect(errorOf('qty qty')).toMatch(/unexpected "qty"/);
    expect(errorOf('')).toBe('the expression is empty');
    expect(errorOf('('.repeat(100) + 'qty' + ')'.repeat(100))).toMatch(/nests deeper/);
    expect(errorOf('1e999')).toMatch(/too large/);
  });

  test('text reaches SQL only as escaped literals and quoted names', () => {
    const sql = compileExpression(parseExpression(`"x""; DROP TABLE t; --" > 1 and name = '''; DROP TABLE t; --'`, columns));
    expect(sql).toBe(`(("x""; DROP TABLE t; --" > CAST(1 AS BIGINT)) AND ("name" = '''; DROP TABLE t; --'))`);
  });

  test('expressionColumns lists the columns read', () => {
    expect(expressionColumns(parseExpression('price / carat + coalesce(qty, `and`)', columns))).toEqual(['price', 'carat', 'qty', 'and']);
  });
});
