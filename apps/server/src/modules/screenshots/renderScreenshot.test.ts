import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { bubbleColours } from './iosLayout.js';
import { renderScreenshot, type BubbleBox, type RenderedScreenshot } from './renderScreenshot.js';
import type { ScreenshotModel } from './screenshotModel.js';
import { colourDistance, countUnlike, decodePng, pngSize, type Pixels } from './test/pngPixels.js';

const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const BLUE = rgb(bubbleColours.outgoing);
const GREY = rgb(bubbleColours.incoming);
const RED = [220, 20, 20];

async function redPicture(width: number, height: number) {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: RED[0] ?? 0, g: RED[1] ?? 0, b: RED[2] ?? 0 } } }).png().toBuffer();
  return { dataUri: `data:image/png;base64,${png.toString('base64')}`, width, height };
}

/** The text area of a bubble (inside its padding), in the PNG's pixels. */
const inner = (box: BubbleBox, scale: number) => ({ left: (box.left + 12) * scale, top: (box.top + 7) * scale, width: (box.width - 24) * scale, height: (box.height - 14) * scale });

describe('renderScreenshot', () => {
  let model: ScreenshotModel;
  let shots: Record<1 | 2, { shot: RenderedScreenshot; pixels: Pixels }>;

  beforeAll(async () => {
    model = {
      name: 'Ada Lovelace',
      initials: 'AL',
      time: '9:41',
      stamp: 'Today 9:41',
      messages: [
        { outgoing: false, text: 'Is my order ready?', picture: null },
        { outgoing: true, text: 'Yes! It is ready for pickup at the front desk until 6 pm today, see you soon.', picture: null },
        { outgoing: true, text: 'Here it is', picture: await redPicture(500, 300) },
        { outgoing: false, text: '😀', picture: null },
      ],
    };
    const render = async (scale: 1 | 2) => {
      const shot = await renderScreenshot(model, scale);
      return { shot, pixels: await decodePng(shot.png) };
    };
    shots = { 1: await render(1), 2: await render(2) };
  });

  it('draws a phone screen 390 points wide, at 1x and 2x, as its PNG header says', () => {
    expect(pngSize(shots[1].shot.png)).toEqual({ width: 390, height: 844 });
    expect(pngSize(shots[2].shot.png)).toEqual({ width: 780, height: 1688 });
    expect([shots[2].pixels.width, shots[2].pixels.height]).toEqual([780, 1688]);
    expect(shots[1].shot.bubbles).toEqual(shots[2].shot.bubbles);
  });

  it('puts outgoing bubbles on the right in blue, incoming on the left in grey, each with its text drawn inside', () => {
    for (const scale of [1, 2] as const) {
      const { shot, pixels } = shots[scale];
      const texts = shot.bubbles.filter((b) => b.part === 'text');
      expect(texts.map((b) => [b.index, b.outgoing])).toEqual([[0, false], [1, true], [2, true], [3, false]]);
      for (const box of texts) {
        const middle = box.left + box.width / 2;
        if (box.outgoing) expect(box.left + box.width, 'outgoing ends at the right margin').toBeGreaterThan(370);
        else expect(box.left, 'incoming starts at the left margin').toBeLessThan(20);
        expect(middle > 195).toBe(box.outgoing);
        const background = box.outgoing ? BLUE : GREY;
        // The bubble's own colour in its padding, left of the text.
        expect(colourDistance(pixels.at((box.left + 5) * scale, (box.top + box.height / 2) * scale), background)).toBeLessThan(8);
        expect(countUnlike(pixels, inner(box, scale), background), `text pixels in bubble ${String(box.index)}`).toBeGreaterThan(15 * scale * scale);
      }
      // The long text wraps onto several lines; a one-line bubble is about 36 points high.
      expect(texts[1]?.height).toBeGreaterThan(60);
    }
  });

  it("draws a message's picture above its text, fitted within 240 points, and emoji in colour", () => {
    const { shot, pixels } = shots[2];
    const picture = shot.bubbles.find((b) => b.part === 'picture');
    const text = shot.bubbles.find((b) => b.index === 2 && b.part === 'text');
    expect(picture).toMatchObject({ index: 2, outgoing: true, width: 240, height: 144 });
    expect((picture?.top ?? 0) + (picture?.height ?? 0)).toBeLessThanOrEqual(text?.top ?? 0);
    expect(colourDistance(pixels.at(((picture?.left ?? 0) + 120) * 2, ((picture?.top ?? 0) + 72) * 2), RED)).toBeLessThan(8);
    // Twemoji's grinning face is yellow: red and green high, blue low.
    const emoji = shot.bubbles.find((b) => b.index === 3);
    let yellow = 0;
    for (let y = 0; y < (emoji?.height ?? 0) * 2; y += 1) {
      for (let x = 0; x < (emoji?.width ?? 0) * 2; x += 1) {
        const [r, g, b] = pixels.at((emoji?.left ?? 0) * 2 + x, (emoji?.top ?? 0) * 2 + y);
        if (r > 200 && g > 150 && b < 100) yellow += 1;
      }
    }
    expect(yellow).toBeGreaterThan(50);
  });

  it('grows taller than a screen for long conversations instead of cutting them', async () => {
    const long = 'A long message that wraps over several lines of the bubble. '.repeat(10);
    const shot = await renderScreenshot({ ...model, messages: Array.from({ length: 5 }, (_, i) => ({ outgoing: i % 2 === 0, text: long, picture: null })) }, 1);
    expect(shot.width).toBe(390);
    expect(shot.height).toBeGreaterThan(844);
    expect(pngSize(shot.png).height).toBe(shot.height);
    const last = shot.bubbles.at(-1);
    expect((last?.top ?? 0) + (last?.height ?? 0)).toBeLessThan(shot.height - 60);
  });
});
