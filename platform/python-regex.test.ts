import { pythonRegexToJs, UnsupportedPattern } from './python-regex';

const js = (py: string): RegExp => new RegExp(pythonRegexToJs(py), 'u');

describe('pythonRegexToJs', () => {
  it('writes astral escapes the JavaScript way', () => {
    expect(pythonRegexToJs('[\\U0001F600-\\U0001F64F]')).toBe('[\\u{1f600}-\\u{1f64f}]');
    expect(js('^[\\U0001F600-\\U0001F64F]$').test('😀')).toBe(true);
  });

  it('gives \\w, \\d and \\s their Unicode meaning in Python', () => {
    expect(js('^\\w+$').test('Łódź_2')).toBe(true);
    expect(js('^\\d$').test('٣')).toBe(true);
    expect(js('^\\s$').test('\u0085')).toBe(true);
    expect(js('^\\S$').test('\ufeff')).toBe(true);
    expect(js('^[\\w-]+$').test('São-Paulo')).toBe(true);
  });

  it('drops identity escapes the u flag rejects and escapes lone braces', () => {
    expect(js("^\\'$|^\\!$").test("'")).toBe(true);
    expect(js('^\\{x}$').test('{x}')).toBe(true);
    expect(js('^a{2}$').test('aa')).toBe(true);
    expect(js('^a{,2}$').test('aa')).toBe(true);
    expect(js('^[]a]$').test(']')).toBe(true);
  });

  it('refuses what it cannot translate faithfully', () => {
    expect(() => pythonRegexToJs('(?i)abc')).toThrow(UnsupportedPattern);
    expect(() => pythonRegexToJs('\\bword\\b')).toThrow(UnsupportedPattern);
    expect(() => pythonRegexToJs('[\\W]')).toThrow(UnsupportedPattern);
  });
});
