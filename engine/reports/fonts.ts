import { readFileSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';

/**
 * The one typeface of every report: DejaVu Sans, from the `dejavu-fonts-ttf` npm package, so a fresh machine with no
 * system fonts still draws chart labels and the PDF holds any Latin, Greek or Cyrillic text a user typed (pdfkit's
 * built-in Helvetica is WinAnsi only). Characters it lacks (CJK, emoji) show as empty boxes; nothing crashes.
 */
export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  oblique: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf'),
} as const;

export type FontStyle = keyof typeof FONT_FILES;

/** The family name charts draw with: our own name, so a system font of the same name can never stand in for it. */
export const CANVAS_FONT_FAMILY = 'ReportSans';

const fontBytes = new Map<FontStyle, Buffer>();

/** The TTF bytes of one style, read once per process (pdfkit embeds a subset of them in each PDF). */
export function fontData(style: FontStyle): Buffer {
  let bytes = fontBytes.get(style);
  if (!bytes) {
    bytes = readFileSync(FONT_FILES[style]);
    fontBytes.set(style, bytes);
  }
  return bytes;
}

let canvasFontsRegistered = false;

/** Registers the regular and bold faces with @napi-rs/canvas under CANVAS_FONT_FAMILY, once per process. */
export function registerCanvasFonts(): void {
  if (canvasFontsRegistered) return;
  for (const style of ['regular', 'bold'] as const) {
    if (!GlobalFonts.register(fontData(style), CANVAS_FONT_FAMILY)) throw new Error(`The report font ${FONT_FILES[style]} could not be loaded`);
  }
  canvasFontsRegistered = true;
}
