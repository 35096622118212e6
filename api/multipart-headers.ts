/**
 * The header grammar of multipart/form-data parts: Content-Type and Content-Disposition parameters (RFC 7231
 * tokens and quoted strings, RFC 5987 `name*=charset'lang'value`), charsets and file-name base names. It follows
 * busboy's rules (the parser it replaced), so names, file names and field values decode as they did then; it is
 * our own code because busboy exposes these only from a private file.
 */

export interface ParamMap {
  [name: string]: string | undefined;
}

/** RFC 7230 `tchar`. */
const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** A quoted string's text: any byte but controls (tab allowed), `"`, `\` and DEL. */
const QDTEXT = /[\t !#-[\]-~\x80-\xff]/;
/** RFC 5987 `mime-charset` characters. */
const CHARSET = /[!#$%&+\-0-9A-Z^_`a-z{}~]/;
/** RFC 5987 `attr-char`. */
const ATTR_CHAR = /[!#$&+\-.0-9A-Z^_`a-z|~]/;
const HEX = /^[0-9A-Fa-f]{2}$/;

const isWhite = (c: string): boolean => c === ' ' || c === '\t';

/** Reads `; name=value` pairs from `s[i..]`; null when malformed. The first value of a name wins. */
function parseParams(s: string, i: number, extended: boolean): ParamMap | null {
  const params: ParamMap = Object.create(null) as ParamMap;
  while (i < s.length) {
    while (i < s.length && isWhite(s[i])) i++;
    if (i === s.length) break;
    if (s[i++] !== ';') return null;
    while (i < s.length && isWhite(s[i])) i++;
    if (i === s.length) return null;
    const nameStart = i;
    while (i < s.length && TOKEN.test(s[i])) i++;
    if (i === s.length || s[i] !== '=') return null;
    const name = s.slice(nameStart, i);
    let value: string | undefined;
    if (extended && name.endsWith('*')) {
      const read = readExtended(s, i + 1);
      if (!read) return null;
      [value, i] = read;
    } else {
      const read = readValue(s, i + 1);
      if (!read) return null;
      [value, i] = read;
    }
    const key = name.toLowerCase();
    if (params[key] === undefined) params[key] = value;
  }
  return params;
}

/** A token or a quoted string at `s[i..]`: [value, next index], or null when malformed. */
function readValue(s: string, i: number): [string, number] | null {
  if (i >= s.length) return null;
  if (s[i] !== '"') {
    const start = i;
    while (i < s.length && TOKEN.test(s[i])) i++;
    return i === start ? null : [s.slice(start, i), i];
  }
  let value = '';
  for (i++; i < s.length; i++) {
    const c = s[i];
    if (c === '"') return [value, i + 1];
    if (c === '\\') {
      const next = s[i + 1];
      if (next === undefined) return null;
      // `\\` and `\"` stand for the character; before anything else the backslash is kept (busboy's reading).
      if (next === '\\' || next === '"') {
        value += next;
        i++;
      } else value += c;
      continue;
    }
    if (!QDTEXT.test(c)) return null;
    value += c;
  }
  return null;
}

/** An RFC 5987 extended value `charset'lang'pct-encoded` at `s[i..]`, decoded: [value, next index] or null. */
function readExtended(s: string, i: number): [string, number] | null {
  const charsetStart = i;
  while (i < s.length && CHARSET.test(s[i])) i++;
  if (i === s.length || s[i] !== "'") return null;
  const charset = s.slice(charsetStart, i);
  const langEnd = s.indexOf("'", i + 1);
  if (langEnd < 0 || langEnd + 1 === s.length) return null;
  i = langEnd + 1;
  let raw = '';
  for (; i < s.length; i++) {
    const c = s[i];
    if (ATTR_CHAR.test(c)) raw += c;
    else if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return null;
      raw += String.fromCharCode(parseInt(hex, 16));
      i += 2;
    } else break;
  }
  const value = decodeText(Buffer.from(raw, 'latin1'), charset);
  return value === undefined ? null : [value, i];
}

const LATIN1 = new Set(['latin1', 'ascii', 'us-ascii', 'iso-8859-1', 'iso8859-1', 'iso88591', 'iso_8859-1', 'windows-1252', 'iso_8859-1:1987', 'cp1252', 'x-cp1252']);
const UTF8 = new Set(['utf-8', 'utf8']);
const UTF16LE = new Set(['utf16le', 'utf-16le', 'ucs2', 'ucs-2']);

/** Bytes in a part's charset as text; undefined for a charset nothing here can decode. */
export function decodeText(bytes: Buffer, charset: string): string | undefined {
  const c = charset.toLowerCase();
  if (bytes.length === 0) return '';
  if (UTF8.has(c)) return bytes.toString('utf8');
  if (LATIN1.has(c)) return bytes.toString('latin1');
  if (UTF16LE.has(c)) return bytes.toString('utf16le');
  if (c === 'base64') return bytes.toString('base64');
  try {
    return new TextDecoder(c).decode(bytes);
  } catch {
    return undefined;
  }
}

/** `type/subtype; params` (type and subtype lower-cased), or undefined when malformed. */
export function parseContentType(s: string): { type: string; subtype: string; params: ParamMap } | undefined {
  const slash = s.indexOf('/');
  if (slash <= 0) return undefined;
  for (let i = 0; i < slash; i++) if (!TOKEN.test(s[i])) return undefined;
  let i = slash + 1;
  while (i < s.length && TOKEN.test(s[i])) i++;
  if (i === slash + 1) return undefined;
  const params = parseParams(s, i, false);
  if (!params) return undefined;
  return { type: s.slice(0, slash).toLowerCase(), subtype: s.slice(slash + 1, i).toLowerCase(), params };
}

/**
 * `form-data; name=…; filename=…` (type lower-cased), or undefined when malformed. Plain parameter values are
 * kept as read (latin1, one character per byte); `name*` values are decoded from their stated charset.
 */
export function parseDisposition(s: string): { type: string; params: ParamMap } | undefined {
  if (s.length === 0) return undefined;
  let i = 0;
  while (i < s.length && TOKEN.test(s[i])) i++;
  const params = parseParams(s, i, true);
  if (!params) return undefined;
  return { type: s.slice(0, i).toLowerCase(), params };
}

/** The last segment of a client's file path (`/` or `\` separated); `.` and `..` become empty. */
export function basename(p: string): string {
  const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  const name = cut >= 0 ? p.slice(cut + 1) : p;
  return name === '.' || name === '..' ? '' : name;
}
