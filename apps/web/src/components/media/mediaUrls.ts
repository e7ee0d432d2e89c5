import { MESSAGE_MEDIA_MAX, type MessageMedia, type SharedFile } from '@parley/shared';

const ownMediaPath = /^\/v1\/accounts\/[^/]+\/media\/[^/?#]+$/;

/**
 * The same-origin path to fetch a media URL with the user's token, when it is one of the account's stored
 * files (`{PUBLIC_URL}/v1/accounts/{acc}/media/{fileId}`); null for any other address (a carrier's or the
 * simulator's public picture), which the browser loads as it is. A path, not the absolute URL, so the
 * request carries no cross-origin question and the development server's proxy serves it.
 */
export const accountMediaPath = (url: string, origins: readonly string[]): string | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const allowed = origins.flatMap((origin) => {
    try {
      return [new URL(origin).origin];
    } catch {
      return [];
    }
  });
  if (!allowed.includes(parsed.origin)) return null;
  return ownMediaPath.test(parsed.pathname) ? parsed.pathname : null;
};

/** What a shown item is: an image the page draws, or another type it links to. */
export const isImageMedia = (media: Pick<MessageMedia, 'type'>): boolean => media.type.toLowerCase().startsWith('image/');

/** The viewer page of one item (/media/{messageId}/{idx}). */
export const mediaViewerPath = (messageId: string, idx: number): string => `/media/${messageId}/${String(idx)}`;

/** A message's media item made from an upload's answer; the file keeps the name it had on the user's disk. */
export const attachmentOf = (file: SharedFile, name: string): MessageMedia => ({
  url: file.link,
  type: file.type,
  filename: name.trim() === '' ? file.filename : name,
});

export const canAttachMore = (value: readonly MessageMedia[]): boolean => value.length < MESSAGE_MEDIA_MAX;

/** Adds an item unless five are there already (at most 5 attachments). */
export const withAttachment = (value: readonly MessageMedia[], item: MessageMedia): MessageMedia[] =>
  canAttachMore(value) ? [...value, item] : [...value];

export const withoutAttachment = (value: readonly MessageMedia[], index: number): MessageMedia[] => value.filter((_, i) => i !== index);

/** The file a drop or a chooser handed over, when it is exactly one (one file). */
export const singleFile = <T>(files: ArrayLike<T> | null | undefined): T | null => (files?.length === 1 ? (files[0] ?? null) : null);
