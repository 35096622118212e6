/**
 * Python `re` pattern source → JavaScript RegExp source (for the `u` flag), for the spaCy tokenizer's patterns the
 * NER model converter carries over. The differences that matter there: `\U0001F600` escapes, Unicode-aware `\w`
 * `\d` `\s` (ASCII in JavaScript), Python's own whitespace set, identity escapes of ordinary characters (`\'`, `\!`),
 * which the `u` flag rejects, and literal braces. Anything it does not know how to translate is an error rather
 * than a silently different pattern.
 */

/** Python's `str.isspace()` characters as a class body. */
const PY_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python's Unicode `\w`: letters, numbers and underscore (str.isalnum() or '_'). */
const PY_WORD = '\\p{L}\\p{N}_';
/** Characters JavaScript lets a `u`-flag pattern escape. */
const SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);

export class UnsupportedPattern extends Error {}

export function pythonRegexToJs(src: string): string {
  let i = 0;
  const flags = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (flags) {
    if (/[iLmsx]/.test(flags[1])) throw new UnsupportedPattern(`inline flags (?${flags[1]})`);
    i = flags[0].length;
  }
  let out = '';
  let inClass = false;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) throw new UnsupportedPattern('trailing backslash');
      if (n === 'U') {
        const hex = src.slice(i + 2, i + 10);
        if (!/^[0-9a-fA-F]{8}$/.test(hex)) throw new UnsupportedPattern(`\\U${hex}`);
        out += `\\u{${parseInt(hex, 16).toString(16)}}`;
        i += 10;
        continue;
      }
      if (n === 'u' || n === 'x') {
        const len = n === 'u' ? 4 : 2;
        const hex = src.slice(i + 2, i + 2 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new UnsupportedPattern(`\\${n}${hex}`);
        out += `\\${n}${hex}`;
        i += 2 + len;
        continue;
      }
      i += 2;
      switch (n) {
        case 'w':
          out += inClass ? PY_WORD : `[${PY_WORD}]`;
          break;
        case 'd':
          out += '\\p{Nd}';
          break;
        case 's':
          out += inClass ? PY_SPACE : `[${PY_SPACE}]`;
          break;
        case 'W':
        case 'D':
        case 'S':
          if (inClass) throw new UnsupportedPattern(`\\${n} inside a class`);
          out += n === 'W' ? `[^${PY_WORD}]` : n === 'D' ? '\\P{Nd}' : `[^${PY_SPACE}]`;
          break;
        case 'b':
        case 'B':
        case 'A':
        case 'Z':
          throw new UnsupportedPattern(`\\${n}`);
        case 'n':
        case 't':
        case 'r':
        case 'f':
        case 'v':
          out += `\\${n}`;
          break;
        default:
          if (/[0-9]/.test(n)) throw new UnsupportedPattern('backreference or octal escape');
          if (SYNTAX.has(n) || (inClass && n === '-')) out += `\\${n}`;
          else out += n;
      }
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += '[';
      i++;
      if (src[i] === '^') {
        out += '^';
        i++;
      }
      // A ']' first in a Python class is a literal.
      if (src[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '{') {
      const q = /^\{(\d*)(,?)(\d*)\}/.exec(src.slice(i));
      if (q && (q[1] || q[3])) {
        out += `{${q[1] || '0'}${q[2]}${q[3]}}`;
        i += q[0].length;
      } else {
        out += '\\{';
        i++;
      }
      continue;
    }
    if (c === '}' || c === ']') {
      out += `\\${c}`;
      i++;
      continue;
    }
    if (src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
      continue;
    }
    if (src.startsWith('(?P=', i) || src.startsWith('(?#', i) || src.startsWith('(?(', i)) throw new UnsupportedPattern(src.slice(i, i + 4));
    out += c;
    i++;
  }
  if (inClass) throw new UnsupportedPattern('unterminated class');
  new RegExp(out, 'u'); // throws on anything JavaScript cannot compile
  return out;
}
