import sharp from 'sharp';

/** A decoded PNG: its size and RGBA pixels, for tests that look at what was drawn. */
export interface Pixels {
  width: number;
  height: number;
  /** [r, g, b, a] of the pixel at x, y. */
  at: (x: number, y: number) => [number, number, number, number];
}

/** Decodes a PNG with sharp (libvips' decoder, not the renderer that wrote it). */
export async function decodePng(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => {
      const i = (Math.round(y) * info.width + Math.round(x)) * 4;
      return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0, data[i + 3] ?? 0];
    },
  };
}

/** The PNG's own header (IHDR): its width and height, read without decoding. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG' || png.subarray(12, 16).toString('latin1') !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** How far apart two colours are (the largest channel difference). */
export const colourDistance = (a: readonly number[], b: readonly number[]): number => Math.max(...[0, 1, 2].map((i) => Math.abs((a[i] ?? 0) - (b[i] ?? 0))));

/** The pixels of a rectangle (in the PNG's pixels) whose colour is far from `background`. */
export function countUnlike(pixels: Pixels, rect: { left: number; top: number; width: number; height: number }, background: readonly number[], far = 60): number {
  let found = 0;
  for (let y = Math.ceil(rect.top); y < Math.floor(rect.top + rect.height); y += 1) {
    for (let x = Math.ceil(rect.left); x < Math.floor(rect.left + rect.width); x += 1) {
      if (colourDistance(pixels.at(x, y), background) > far) found += 1;
    }
  }
  return found;
}
