import busboy from 'busboy';
import { Readable } from 'node:stream';
import { MalformedMultipart, MAX_FIELD_BYTES, MAX_FIELDS, multipartBoundary, MultipartParser } from './multipart';
import { basename, parseContentType, parseDisposition } from './multipart-headers';

interface Parsed {
  fields: Record<string, string>;
  files: { name?: string; filename?: string; data: string }[];
}

function parse(boundary: string, pieces: Buffer[]): Parsed {
  const fields: Record<string, string> = {};
  const files: { name?: string; filename?: string; chunks: Buffer[] }[] = [];
  const parser = new MultipartParser(boundary, {
    field: (name, value) => {
      fields[name] = value;
    },
    fileStart: (name, filename) => {
      files.push({ name, filename, chunks: [] });
      return true;
    },
    fileData: (bytes) => files[files.length - 1].chunks.push(Buffer.from(bytes)),
    fileEnd: () => undefined,
  });
  for (const p of pieces) parser.push(p);
  parser.end();
  return { fields, files: files.map((f) => ({ name: f.name, filename: f.filename, data: Buffer.concat(f.chunks).toString('utf8') })) };
}

/** The same body through busboy's public API, for the parts both read (the first file only, as ours). */
function parseWithBusboy(boundary: string, body: Buffer): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const out: Parsed = { fields: {}, files: [] };
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES } });
    bb.on('field', (name, value) => {
      out.fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => out.files.push({ name, filename: info.filename, data: Buffer.concat(chunks).toString('utf8') }));
    });
    bb.on('close', () => resolve(out));
    bb.on('error', reject);
    Readable.from([body]).pipe(bb);
  });
}

describe('MultipartParser', () => {
  const boundary = 'XyZ123';
  // The file holds proper prefixes of the delimiter (CRLF, "--" and most of the boundary), CRLF rows and a quoted
  // line break: none may end the part, wherever a chunk ends.
  const content = 'a,b\r\n1,"x\r\n--XyZ12!"\r\n2,--\r\n3,\r\n-\r\n--XyZ12';
  const body = Buffer.from(
    `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nCafé\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="C:\\dir\\data.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="other"; filename="ignored.csv"\r\n\r\nskipped\r\n` +
      `--${boundary}--\r\nepilogue`,
  );
  const expected = { fields: { name: 'Café' }, files: [{ name: 'file', filename: 'data.csv', data: content }] };

  it('finds every part whichever byte a chunk ends at', () => {
    for (let cut = 0; cut <= body.length; cut++) {
      expect(parse(boundary, [body.subarray(0, cut), body.subarray(cut)])).toEqual(expected);
    }
    expect(
      parse(
        boundary,
        [...body].map((b) => Buffer.from([b])),
      ),
    ).toEqual(expected);
  });

  it('refuses a body without its closing delimiter or with a broken part header', () => {
    const unterminated = body.subarray(0, body.indexOf(`--${boundary}--`));
    expect(() => parse(boundary, [unterminated])).toThrow(MalformedMultipart);
    const badHeader = Buffer.from(`--${boundary}\r\nno colon here\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect(() => parse(boundary, [badHeader])).toThrow(MalformedMultipart);
    const nul = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a\u0000b"\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect(() => parse(boundary, [nul])).toThrow(MalformedMultipart);
  });

  it('truncates long fields and ignores fields past the limit', () => {
    const parts = Array.from({ length: MAX_FIELDS + 2 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${i === 0 ? 'x'.repeat(MAX_FIELD_BYTES + 10) : 'v'}\r\n`);
    const parsed = parse('b', [Buffer.from(`${parts.join('')}--b--\r\n`)]);
    expect(Object.keys(parsed.fields)).toHaveLength(MAX_FIELDS);
    expect(parsed.fields.f0).toHaveLength(MAX_FIELD_BYTES);
    expect(parsed.fields[`f${MAX_FIELDS}`]).toBeUndefined();
  });

  // The header grammar replaced busboy's: names, file names and values must read as busboy reads them.
  const dispositions = [
    'form-data; name="plain"',
    'form-data; name=token',
    'form-data; name="quoted \\"pair\\" and \\\\ and \\x"',
    'FORM-DATA; NAME="upper"',
    'form-data; name="a"; name="second name ignored"',
    'form-data; name="f"; filename*=UTF-8\'\'caf%C3%A9.csv',
    'form-data; name="f"; filename*=iso-8859-1\'en\'caf%E9.csv',
    'form-data; name="f"; filename="../../etc/passwd"',
    'form-data; name="f"; filename="C:\\\\Users\\\\x\\\\report.csv"',
    'form-data; name="f"; filename*=utf-8\'\'%E2%82%AC%20rates.csv; filename="fallback.csv"',
    'form-data; name="f"; filename=".."',
    'form-data; name="f"; filename="caf\u00c3\u00a9.csv"',
    'form-data ; name="space before semicolon"',
    'form-data; name="unterminated',
    'form-data; name=',
    'form-data; name="x";',
    'attachment; name="not form-data"',
    'form-data; name="f"; filename*=bogus-charset\'\'x%E9',
    'form-data; name="f"; filename*=utf-8\'\'bad%zz',
  ];
  it.each(dispositions)('reads %j as busboy does', async (disposition) => {
    const raw = Buffer.from(`--q\r\nContent-Disposition: ${disposition}\r\n\r\nvalue\r\n--q--\r\n`, 'latin1');
    expect(parse('q', [raw])).toEqual(await parseWithBusboy('q', raw));
  });

  const contentTypes = ['text/plain; charset=utf-8', 'text/plain; charset="ISO-8859-1"', 'text/plain; charset=utf16le', 'application/octet-stream', 'text/plain;charset=latin1', 'bad type'];
  it.each(contentTypes)('decodes a field of type %j as busboy does', async (contentType) => {
    const value = contentType.includes('16') ? Buffer.from('héllo', 'utf16le') : Buffer.from('h\u00e9llo', contentType.includes('8859') || contentType.includes('latin1') ? 'latin1' : 'utf8');
    const raw = Buffer.concat([Buffer.from(`--q\r\nContent-Disposition: form-data; name="v"\r\nContent-Type: ${contentType}\r\n\r\n`), value, Buffer.from('\r\n--q--\r\n')]);
    expect(parse('q', [raw])).toEqual(await parseWithBusboy('q', raw));
  });
});

describe('multipart headers', () => {
  it('reads a content type and its boundary', () => {
    expect(parseContentType('Multipart/Form-Data; boundary="a b"; charset=utf-8')).toEqual({
      type: 'multipart',
      subtype: 'form-data',
      params: expect.objectContaining({ boundary: 'a b', charset: 'utf-8' }),
    });
    expect(parseContentType('multipart/')).toBeUndefined();
    expect(parseContentType('/form-data')).toBeUndefined();
    expect(parseContentType('multipart/form-data; boundary')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data; boundary=----x')).toBe('----x');
    expect(multipartBoundary('multipart/mixed; boundary=x')).toBeNull();
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });

  it('decodes RFC 5987 parameters and keeps plain ones as read', () => {
    expect(parseDisposition("form-data; filename*=UTF-8''%E2%82%AC.csv")?.params['filename*']).toBe('€.csv');
    expect(parseDisposition('form-data; filename="\u00e2\u0082\u00ac.csv"')?.params.filename).toBe('\u00e2\u0082\u00ac.csv');
    expect(parseDisposition("form-data; filename*=utf-8''%G1")).toBeUndefined();
  });

  it('keeps only the base name of a client path', () => {
    expect(basename('C:\\dir\\a.csv')).toBe('a.csv');
    expect(basename('/tmp/../b.csv')).toBe('b.csv');
    expect(basename('..')).toBe('');
    expect(basename('dir/.')).toBe('');
  });
});
