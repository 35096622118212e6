import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { AppContext, AppState } from '../context';
import { HttpError } from '../errors';

/**
 * The content codings a JSON body may arrive in (RFC 9110 §8.4; names are case-insensitive). `createUnzip` reads
 * both gzip and zlib streams, so a body labelled with the other of the two still decodes, as it did before.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createUnzip(),
  deflate: () => zlib.createUnzip(),
  br: () => zlib.createBrotliDecompress(),
};
const DECODED = 'gzip, deflate and br';

/**
 * Parses JSON (and the one form route's urlencoded) bodies, within a size limit and a deadline.
 * It runs after authentication, so an anonymous client cannot make the server read a body; and a
 * body that has not arrived whole within `timeoutMs` (a client that declares 100 bytes and sends 9)
 * is answered 408 and the connection closed, instead of holding it open.
 *
 * A `Content-Encoding` body is decoded here, not by koa-body (whose decoder, `inflation`, answered 500 to a body
 * that does not decode, and whose stream the deadline could not reach: the 408 was emitted on the request, which
 * nothing read any more, and that unhandled error ended the process). The size limit applies to the decoded bytes.
 */
export function bodyParser(limits: { maxBytes: number; timeoutMs: number }, form?: 'application/x-www-form-urlencoded', opts: { keepRaw?: boolean } = {}): Koa.Middleware<AppState> {
  const parse = koaBody({
    // `ctx.request.rawBody`: the text as it arrived (decoded of its Content-Encoding), for routes that verify a signature over it.
    includeUnparsed: opts.keepRaw ?? false,
    jsonLimit: limits.maxBytes,
    formLimit: limits.maxBytes,
    // No route reads text; JSON routes refuse other types (415, see api/route.ts).
    text: false,
    // Uploads are streamed by their own routes, never buffered here.
    multipart: false,
    onError: (err) => {
      throw err;
    },
  });
  return async (ctx, next) => {
    if (!hasBody(ctx as AppContext)) return next();
    assertBodyType(ctx as AppContext, form);
    const coding = contentCoding(ctx as AppContext);
    const decoder = coding === 'identity' ? null : decodedBody(ctx as AppContext, DECODERS[coding]());
    const timer = setTimeout(() => {
      ctx.set('Connection', 'close');
      // raw-body (under koa-body) settles on the error of the stream it reads: the parse rejects with this 408.
      const err = Object.assign(new Error(`The request body did not arrive within ${Math.round(limits.timeoutMs / 1000)} s`), { status: 408, expose: true });
      if (decoder) decoder.stream.destroy(err);
      else ctx.req.emit('error', err);
    }, limits.timeoutMs);
    try {
      await parse((decoder?.ctx ?? ctx) as never, async () => undefined);
    } catch (err) {
      if (!decoder) throw err;
      // What is left of the request is not read: the connection cannot carry another one.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      // The parser's own refusals carry their status (413, 400 for JSON); what has none came from the decoder.
      if (typeof (err as { status?: unknown }).status === 'number') throw err;
      throw new HttpError(400, `The request body is not valid ${coding} data (its Content-Encoding)`);
    } finally {
      clearTimeout(timer);
      decoder?.detach();
    }
    await next();
  };
}

/** Whether the request carries a body at all; one without is left to the schema (which may require fields). */
function hasBody(ctx: AppContext): boolean {
  return ctx.get('transfer-encoding') !== '' || Boolean(ctx.request.length);
}

/**
 * A body of the wrong type is refused (415) before it is read. JSON routes take JSON only: an
 * HTML form or a `text/plain` fetch from another origin is a "simple" cross-origin request (no
 * preflight), and a form-encoded login would otherwise set the session cookies of an attacker's
 * account in the victim's browser (login CSRF).
 */
function assertBodyType(ctx: AppContext, form?: 'application/x-www-form-urlencoded'): void {
  const ok = form ? ctx.is(form) : ctx.is('application/json', '+json');
  if (!ok) throw new HttpError(415, form ? `Expected ${form}` : 'Expected application/json');
}

/** The body's one content coding (`identity` when none), or 415 for what this API does not decode, a list of several included. */
function contentCoding(ctx: AppContext): 'identity' | keyof typeof DECODERS {
  const sent = ctx.get('content-encoding').trim();
  const coding = sent.toLowerCase();
  if (coding === '' || coding === 'identity') return 'identity';
  if (Object.hasOwn(DECODERS, coding)) return coding;
  throw new HttpError(415, `Unsupported Content-Encoding: ${sent.slice(0, 100)} (the API decodes ${DECODED})`);
}

/**
 * The request piped through `stream`, and a stand-in context whose `req` is that stream, for koa-body: co-body reads
 * `ctx.req` and its headers, and finds an identity body of unknown length there. Everything else (the type check,
 * where the parsed body is put) still reaches the real context through the prototype.
 */
function decodedBody(ctx: AppContext, stream: Transform) {
  const headers: Record<string, string | string[] | undefined> = { ...ctx.req.headers, 'content-encoding': 'identity' };
  delete headers['content-length'];
  // raw-body learns of a client that went away from its stream: the request's end is the decoder's to pass on.
  const onClose = () => {
    if (!ctx.req.complete) stream.destroy(Object.assign(new Error('The request was aborted'), { status: 400, expose: true }));
  };
  const onError = (err: Error) => stream.destroy(Object.assign(err, { status: 400, expose: false }));
  ctx.req.once('close', onClose);
  ctx.req.once('error', onError);
  // raw-body listens for the decoder's errors only while it reads; bytes already handed to zlib may still fail to
  // decode after that, and an 'error' nobody listens for would end the process.
  stream.on('error', () => undefined);
  ctx.req.pipe(stream);
  return {
    stream,
    ctx: Object.create(ctx, { req: { value: Object.assign(stream, { headers }) } }) as AppContext,
    detach: () => {
      ctx.req.off('close', onClose);
      ctx.req.off('error', onError);
      ctx.req.unpipe(stream);
      stream.destroy();
    },
  };
}
