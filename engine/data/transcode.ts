/**
 * Streaming re-encoding of text files to UTF-8, so DuckDB (which reads UTF-8) never sees other encodings.
 * Memory is bounded by the stream high-water marks, whatever the file size.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TextDecoder } from 'node:util';

/** Transform decoding `encoding` chunks (any byte boundaries) into UTF-8 bytes; a leading BOM is dropped. */
class ToUtf8 extends Transform {
  private readonly decoder: TextDecoder;

  constructor(encoding: string) {
    super();
    // fatal: false — undecodable bytes become U+FFFD rather than failing a multi-GB upload at byte 3e9.
    this.decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: false });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const s = this.decoder.decode(chunk, { stream: true });
    done(null, s.length > 0 ? Buffer.from(s, 'utf8') : undefined);
  }

  override _flush(done: TransformCallback): void {
    const s = this.decoder.decode();
    done(null, s.length > 0 ? Buffer.from(s, 'utf8') : undefined);
  }
}

/**
 * Copies `srcPath` to `destPath` re-encoded from `encoding` (a WHATWG label: windows-1252, utf-16le, utf-16be)
 * to UTF-8 without BOM.
 */
export async function transcodeToUtf8(srcPath: string, destPath: string, encoding: string): Promise<void> {
  await pipeline(
    createReadStream(srcPath, { highWaterMark: 1 << 20 }),
    new ToUtf8(encoding),
    createWriteStream(destPath, { highWaterMark: 1 << 20 }),
  );
}
