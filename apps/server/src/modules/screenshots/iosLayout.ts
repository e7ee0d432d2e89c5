import { SCREENSHOT_WIDTH } from '@parley/shared';
import { SCREENSHOT_FONT_FAMILY } from './assets.js';
import type { ScreenshotMessage, ScreenshotModel, ScreenshotPicture } from './screenshotModel.js';

/** A node of the tree satori lays out (a React element without React). */
export interface LayoutNode {
  type: string;
  key: string | null;
  props: { style?: Record<string, string | number>; children?: LayoutChild | LayoutChild[]; src?: string; width?: number; height?: number };
}
type LayoutChild = LayoutNode | string;

/** An iPhone's screen in points; a longer conversation makes the picture taller, never cut. */
export const SCREEN_HEIGHT = 844;
/** The bubbles' colours: outgoing blue, incoming grey. */
export const bubbleColours = { outgoing: '#0A84FF', incoming: '#E9E9EB' } as const;
const BLUE = bubbleColours.outgoing;
const GREY_BUBBLE = bubbleColours.incoming;
const GREY_TEXT = '#8E8E93';
const HAIRLINE = '#D1D1D6';
const BUBBLE_MAX_WIDTH = 270;
const PICTURE_MAX_WIDTH = 240;
const PICTURE_MAX_HEIGHT = 320;

/** The key satori reports a bubble's box under (renderScreenshot.ts collects them). */
export const bubbleKey = (index: number, part: 'text' | 'picture'): string => `${part}-${String(index)}`;

const el = (type: string, style: Record<string, string | number>, children?: LayoutChild | LayoutChild[], key: string | null = null): LayoutNode => ({
  type,
  key,
  props: children === undefined ? { style } : { style, children },
});

const row = (style: Record<string, string | number>, children: LayoutChild[]): LayoutNode => el('div', { display: 'flex', flexDirection: 'row', ...style }, children);
const column = (style: Record<string, string | number>, children: LayoutChild[]): LayoutNode =>
  el('div', { display: 'flex', flexDirection: 'column', ...style }, children);
const box = (style: Record<string, string | number>): LayoutNode => el('div', { display: 'flex', ...style });

function signalBars(): LayoutNode {
  return row({ alignItems: 'flex-end', marginRight: 6 }, [4, 6, 8, 10].map((height) => box({ width: 3, height, marginLeft: 1.5, borderRadius: 1, backgroundColor: '#000' })));
}

function battery(): LayoutNode {
  return row({ alignItems: 'center' }, [
    row({ width: 25, height: 12, border: '1px solid #A0A0A5', borderRadius: 3.5, padding: 1.5 }, [box({ width: 18, height: 7, borderRadius: 1.5, backgroundColor: '#000' })]),
    box({ width: 1.5, height: 4, marginLeft: 1, borderRadius: 1, backgroundColor: '#A0A0A5' }),
  ]);
}

function statusBar(time: string): LayoutNode {
  return row({ height: 50, alignItems: 'center', justifyContent: 'space-between', padding: '0 30px 0 44px' }, [
    el('div', { display: 'flex', fontSize: 16, fontWeight: 600, color: '#000' }, time),
    row({ alignItems: 'center' }, [signalBars(), battery()]),
  ]);
}

function avatar(initials: string): LayoutNode {
  const circle = { width: 52, height: 52, borderRadius: 26, alignItems: 'center', justifyContent: 'center', backgroundImage: 'linear-gradient(180deg, #A6ABB7, #868A96)' };
  if (initials !== '') return el('div', { display: 'flex', ...circle, color: '#fff', fontSize: 22, fontWeight: 600 }, initials);
  // A person's silhouette: head and shoulders.
  return column({ ...circle, justifyContent: 'flex-end', overflow: 'hidden' }, [
    box({ width: 20, height: 20, borderRadius: 10, backgroundColor: '#fff', marginBottom: 3 }),
    box({ width: 38, height: 16, borderRadius: '19px 19px 0 0', backgroundColor: '#fff' }),
  ]);
}

function header(model: ScreenshotModel): LayoutNode {
  return row({ height: 92, alignItems: 'center', justifyContent: 'center', position: 'relative', backgroundColor: '#F6F6F6', borderBottom: `0.5px solid ${HAIRLINE}` }, [
    el('div', { display: 'flex', position: 'absolute', left: 10, top: 14, fontSize: 40, lineHeight: 1, color: BLUE }, '‹'),
    column({ alignItems: 'center', maxWidth: 280 }, [
      avatar(model.initials),
      row({ alignItems: 'center', marginTop: 5 }, [
        el('div', { display: 'flex', fontSize: 12, color: '#000', maxWidth: 260, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }, model.name),
        el('div', { display: 'flex', fontSize: 12, color: GREY_TEXT, marginLeft: 3 }, '›'),
      ]),
    ]),
  ]);
}

/** A picture fitted in its bubble: at most 240 wide and 320 high, never enlarged. */
export function pictureBox(picture: ScreenshotPicture): { width: number; height: number } {
  const scale = Math.min(1, PICTURE_MAX_WIDTH / picture.width, PICTURE_MAX_HEIGHT / picture.height);
  return { width: Math.max(1, Math.round(picture.width * scale)), height: Math.max(1, Math.round(picture.height * scale)) };
}

function bubble(message: ScreenshotMessage, index: number, spacing: number): LayoutNode {
  const parts: LayoutNode[] = [];
  if (message.picture !== null) {
    const size = pictureBox(message.picture);
    parts.push({
      type: 'img',
      key: bubbleKey(index, 'picture'),
      props: { src: message.picture.dataUri, width: size.width, height: size.height, style: { borderRadius: 18, objectFit: 'cover', marginBottom: message.text === '' ? 0 : 2 } },
    });
  }
  if (message.text !== '') {
    const colors = message.outgoing ? { backgroundColor: BLUE, color: '#fff' } : { backgroundColor: GREY_BUBBLE, color: '#000' };
    const style = { display: 'flex', ...colors, padding: '7px 12px', borderRadius: 18, fontSize: 17, lineHeight: 1.3, whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxWidth: BUBBLE_MAX_WIDTH };
    parts.push(el('div', style, message.text, bubbleKey(index, 'text')));
  }
  return row({ justifyContent: message.outgoing ? 'flex-end' : 'flex-start', marginTop: spacing }, [
    column({ alignItems: message.outgoing ? 'flex-end' : 'flex-start', maxWidth: BUBBLE_MAX_WIDTH }, parts),
  ]);
}

function messageList(model: ScreenshotModel): LayoutNode {
  const label = { display: 'flex', justifyContent: 'center', fontSize: 11, color: GREY_TEXT };
  return column({ flexGrow: 1, padding: '10px 14px 16px' }, [
    el('div', { ...label, fontWeight: 600 }, 'Text Message'),
    el('div', { ...label, marginBottom: 6 }, model.stamp),
    ...model.messages.map((message, index) => bubble(message, index, index > 0 && model.messages[index - 1]?.outgoing === message.outgoing ? 2 : 8)),
  ]);
}

function inputBar(): LayoutNode {
  return column({ padding: '6px 12px 8px' }, [
    row({ alignItems: 'center' }, [
      el('div', { display: 'flex', width: 34, height: 34, borderRadius: 17, backgroundColor: '#E9E9EB', alignItems: 'center', justifyContent: 'center', fontSize: 24, color: '#7C7C80' }, '+'),
      el(
        'div',
        { display: 'flex', flexGrow: 1, height: 36, marginLeft: 8, alignItems: 'center', padding: '0 14px', border: `1px solid ${HAIRLINE}`, borderRadius: 18, fontSize: 17, color: '#B8B8BD' },
        'Text Message',
      ),
    ]),
    row({ justifyContent: 'center', marginTop: 20 }, [box({ width: 134, height: 5, borderRadius: 3, backgroundColor: '#000' })]),
  ]);
}

/** The messages app of an iPhone, as satori lays it out: status bar, contact header, messages, input bar. */
export function iosLayout(model: ScreenshotModel): LayoutNode {
  return column(
    { width: SCREENSHOT_WIDTH, minHeight: SCREEN_HEIGHT, backgroundColor: '#fff', fontFamily: SCREENSHOT_FONT_FAMILY, color: '#000' },
    [statusBar(model.time), header(model), messageList(model), inputBar()],
  );
}
