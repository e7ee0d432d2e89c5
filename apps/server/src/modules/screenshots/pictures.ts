import { MEDIA_RESIZE_DEFAULT } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accountMediaReference, drawablePicture, type MediaServices } from '../media/index.js';
import type { ScreenshotPicture } from './screenshotModel.js';

/** What loading pictures needs: the database and the media storage. */
export interface ScreenshotDeps {
  db: Queryable;
  media: MediaServices;
}

/**
 * One of the account's stored files as a picture to draw, fitted within 500 pixels as shared files are;
 * null when the account has none by that id or it is no picture.
 */
export async function storedPicture(deps: ScreenshotDeps, accountId: string, fileId: string): Promise<ScreenshotPicture | null> {
  const picture = await drawablePicture(deps.db, deps.media, accountId, fileId, MEDIA_RESIZE_DEFAULT);
  if (picture === null) return null;
  return { dataUri: `data:image/png;base64,${picture.png.toString('base64')}`, width: picture.width, height: picture.height };
}

/**
 * The first picture of a message's media that the account stored; a URL elsewhere (a carrier's, another
 * site's) is never fetched for a screenshot, so such media draws nothing.
 */
export async function firstStoredPicture(deps: ScreenshotDeps, accountId: string, media: readonly { url: string }[]): Promise<ScreenshotPicture | null> {
  for (const item of media) {
    const reference = accountMediaReference(item.url);
    if (reference?.accountId !== accountId) continue;
    const picture = await storedPicture(deps, accountId, reference.fileId);
    if (picture !== null) return picture;
  }
  return null;
}
