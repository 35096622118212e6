import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import type { Canvas } from '@napi-rs/canvas';

const deflateAsync = promisify(deflate);

/** An opaque picture's pixels as PNG scanlines (RGB, filter byte first): read off a canvas, ready to deflate. */
export interface RgbPixels {
  scanlines: Buffer;
  width: number;
  height: number;
}

/**
 * Reads an opaque canvas's pixels as RGB scanlines, dropping the alpha channel. Synchronous, so a chart.js chart can
 * be read and destroyed (destroying clears the canvas) before the slower deflate.
 */
export function readRgb(canvas: Canvas): RgbPixels {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const scanlines = Buffer.allocUnsafe((width * 3 + 1) * height);
  for (let y = 0, i = 0, o = 0; y < height; y++) {
    scanlines[o++] = 0; // filter type None: deflate does well enough on flat chart backgrounds
    for (let x = 0; x < width; x++, i += 4) {
      scanlines[o++] = rgba[i];
      scanlines[o++] = rgba[i + 1];
      scanlines[o++] = rgba[i + 2];
    }
  }
  return { scanlines, width, height };
}

/**
 * Encodes RGB pixels as a PNG with no alpha channel. Why not the canvas's own PNG encoder: it writes RGBA, and pdfkit
 * splits an alpha channel out of a PNG pixel by pixel in JavaScript (~90 ms for a 1600×840 chart), while an RGB PNG
 * goes into the PDF as it is. The deflate runs on libuv's thread pool, so a picture encodes while the next one draws.
 */
export async function encodePng(pixels: RgbPixels): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(pixels.width, 0);
  ihdr.writeUInt32BE(pixels.height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const idat = await deflateAsync(pixels.scanlines, { level: 6 });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309), as PNG chunks carry it over their type and data. */
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
