import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Font } from 'satori';

/*
 * The fonts and emoji pictures ship inside npm packages (@fontsource/inter, @twemoji/svg), so they are found
 * through the package resolver: the same from the sources, the build and an installed product.
 */
const require = createRequire(import.meta.url);

/** Inter's subsets (satori reads WOFF, not WOFF2): a glyph missing from one is looked up in the next. */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'] as const;
const WEIGHTS = [400, 600] as const;

let fonts: Promise<Font[]> | null = null;

// satori keeps one font per name and weight, so each subset has its own name and the layout lists them all.
const fontName = (subset: string): string => (subset === 'latin' ? 'Inter' : `Inter ${subset}`);

/** The CSS font-family of the screenshot: Inter's subsets in order. */
export const SCREENSHOT_FONT_FAMILY = SUBSETS.map((subset) => `'${fontName(subset)}'`).join(', ');

/** Inter regular and semibold in every subset, read once per process. */
export function screenshotFonts(): Promise<Font[]> {
  fonts ??= Promise.all(
    SUBSETS.flatMap((subset) =>
      WEIGHTS.map(async (weight): Promise<Font> => {
        const data = await readFile(require.resolve(`@fontsource/inter/files/inter-${subset}-${String(weight)}-normal.woff`));
        return { name: fontName(subset), data, weight, style: 'normal' };
      }),
    ),
  ).catch((error: unknown) => {
    fonts = null;
    throw error;
  });
  return fonts;
}

const emojiDir = require.resolve('@twemoji/svg/package.json').replace(/package\.json$/, '');
const emojiCache = new Map<string, string | null>();
const EMOJI_CACHE_MAX = 2000;

/** Twemoji's file name of an emoji: its code points in hex, without U+FE0F unless it joins with U+200D. */
export function twemojiName(emoji: string): string {
  const text = emoji.includes('\u200d') ? emoji : emoji.replaceAll('\ufe0f', '');
  return Array.from(text, (ch) => (ch.codePointAt(0) ?? 0).toString(16)).join('-');
}

/** An emoji as a data URI of its Twemoji picture; null when Twemoji has none. */
export async function emojiDataUri(emoji: string): Promise<string | null> {
  const name = twemojiName(emoji);
  const known = emojiCache.get(name);
  if (known !== undefined) return known;
  // The name is hex digits and dashes only, so it cannot leave the folder.
  if (!/^[0-9a-f]+(-[0-9a-f]+)*$/.test(name)) return null;
  let uri: string | null;
  try {
    const svg = await readFile(`${emojiDir}${name}.svg`);
    uri = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  } catch {
    uri = null;
  }
  if (emojiCache.size >= EMOJI_CACHE_MAX) emojiCache.clear();
  emojiCache.set(name, uri);
  return uri;
}
