/** A picture ready to draw: PNG bytes as a data URI and its size in pixels. */
export interface ScreenshotPicture {
  dataUri: string;
  width: number;
  height: number;
}

/** One bubble: its side, its text ('' for a picture alone) and its picture. */
export interface ScreenshotMessage {
  outgoing: boolean;
  text: string;
  picture: ScreenshotPicture | null;
}

/**
 * What the screenshot shows, and nothing else: the renderer draws exactly these texts, so a masked
 * conversation's model holds no name or number to leak (docs/tools.md, "Screenshot of a conversation").
 */
export interface ScreenshotModel {
  /** The header: the contact as the phone's messages app shows it. */
  name: string;
  /** The avatar's letters; '' draws a silhouette. */
  initials: string;
  /** The status bar's clock. */
  time: string;
  /** The label above the messages ('Today 9:41'). */
  stamp: string;
  messages: ScreenshotMessage[];
}

/** Up to two letters: the first of the first word and of the last. */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((word) => /^\p{L}/u.test(word));
  const first = words[0];
  const last = words.length > 1 ? words.at(-1) : undefined;
  const letter = (word: string | undefined): string => (word === undefined ? '' : (Array.from(word)[0] ?? '').toUpperCase());
  return letter(first) + letter(last);
}
