import { renderAsync } from '@resvg/resvg-js';
import satori from 'satori';
import { SCREENSHOT_WIDTH, type ScreenshotScale } from '@parley/shared';
import { emojiDataUri, screenshotFonts } from './assets.js';
import { bubbleKey, iosLayout } from './iosLayout.js';
import type { ScreenshotModel } from './screenshotModel.js';

/** Where a bubble landed, in points (1x pixels): what a test looks at, and a caller may crop by. */
export interface BubbleBox {
  index: number;
  part: 'text' | 'picture';
  outgoing: boolean;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface RenderedScreenshot {
  png: Buffer;
  /** In pixels: the layout's size times the scale. */
  width: number;
  height: number;
  bubbles: BubbleBox[];
}

/**
 * A screenshot model as a PNG (docs/tools.md): satori lays the iPhone messages screen out and writes SVG with
 * the text as paths (Inter, Twemoji for emoji), resvg draws it at 1x or 2x. A pure function of the model:
 * no database, no network.
 */
export async function renderScreenshot(model: ScreenshotModel, scale: ScreenshotScale): Promise<RenderedScreenshot> {
  const keys = new Map<string, { index: number; part: BubbleBox['part'] }>();
  model.messages.forEach((_, index) => {
    for (const part of ['text', 'picture'] as const) keys.set(bubbleKey(index, part), { index, part });
  });
  const bubbles: BubbleBox[] = [];
  const svg = await satori(iosLayout(model), {
    width: SCREENSHOT_WIDTH,
    fonts: await screenshotFonts(),
    onNodeDetected: (node) => {
      const known = node.key === undefined ? undefined : keys.get(String(node.key));
      if (known === undefined) return;
      const outgoing = model.messages[known.index]?.outgoing ?? false;
      bubbles.push({ ...known, outgoing, left: node.left, top: node.top, width: node.width, height: node.height });
    },
    // Emoji as Twemoji's pictures; other scripts Inter lacks are left to satori (drawn as nothing).
    loadAdditionalAsset: async (code, segment) => (code === 'emoji' ? ((await emojiDataUri(segment)) ?? '') : []),
  });
  // Drawn on a worker thread of libuv's: the event loop goes on serving other requests meanwhile.
  const image = await renderAsync(svg, { fitTo: { mode: 'zoom', value: scale } });
  const png = image.asPng();
  bubbles.sort((a, b) => a.index - b.index || (a.part === 'picture' ? -1 : 1));
  return { png, width: image.width, height: image.height, bubbles };
}
