/**
 * The start of a CSV file, cut at a record boundary, for DuckDB's dialect sniffer: the sniffer's time grows with the
 * bytes it reads (a 40 MB file of 5,000 columns × 1,000 rows: ~10 s), and a few MB hold plenty of rows to tell the
 * delimiter, quoting and header (the types come from the copy's own read of the whole file).
 */
import { open } from 'node:fs/promises';

/** Bytes of a CSV the dialect sniffer reads at least; the sample runs on to the end of the record it cuts into. */
export const SNIFF_SAMPLE_BYTES = 4 * 1024 * 1024;

const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
const QUOTE = 0x22;

/**
 * Writes to `samplePath` the first records of `csvPath` that fill at least `minBytes` (whole records: a line break
 * inside '"' quotes does not end one), and returns true; returns false and writes nothing when the file is no
 * larger than that (sniff the file itself).
 */
export async function writeSniffSample(csvPath: string, samplePath: string, minBytes = SNIFF_SAMPLE_BYTES): Promise<boolean> {
  const src = await open(csvPath, 'r');
  try {
    const size = (await src.stat()).size;
    if (size <= minBytes) return false;
    let quoted = false;
    let offset = 0;
    let cut = -1;
    const buf = Buffer.alloc(CHUNK);
    while (cut < 0 && offset < size) {
      const { bytesRead } = await src.read(buf, 0, CHUNK, offset);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) {
        const b = buf[i];
        if (b === QUOTE) quoted = !quoted;
        else if (b === NEWLINE && !quoted && offset + i + 1 >= minBytes) {
          cut = offset + i + 1;
          break;
        }
      }
      offset += bytesRead;
    }
    if (cut < 0 || cut >= size) return false;
    const out = await open(samplePath, 'w');
    try {
      for (let pos = 0; pos < cut; pos += CHUNK) {
        const n = Math.min(CHUNK, cut - pos);
        const { bytesRead } = await src.read(buf, 0, n, pos);
        await out.write(buf, 0, bytesRead);
      }
    } finally {
      await out.close();
    }
    return true;
  } finally {
    await src.close();
  }
}
