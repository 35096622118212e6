import type { RgbPixels } from './png';

/** Pictures are drawn at twice their layout size: 1600 px across for an 800 px chart, ~240 dpi at A4 text width. */
export const DEVICE_PIXEL_RATIO = 2;

/** A drawn chart or heatmap before encoding; `width` and `height` are layout (CSS) pixels, the pixels DEVICE_PIXEL_RATIO times that. */
export interface Picture {
  pixels: RgbPixels;
  width: number;
  height: number;
}

/** An encoded picture, as the renderers embed it. */
export interface Figure {
  /** An opaque RGB PNG at DEVICE_PIXEL_RATIO. */
  png: Buffer;
  /** Layout size in CSS pixels (96 per inch). */
  width: number;
  height: number;
}
