import type { ScreenshotQuery } from '@parley/shared';
import { notFound } from '../../platform/errors.js';
import { storedPicture, type ScreenshotDeps } from './pictures.js';
import { initialsOf, type ScreenshotModel } from './screenshotModel.js';

export const SCREENSHOT_PICTURE = 'The picture';

/**
 * The screenshot generator's model: the sample messages as typed, under the name given. A picture is a file
 * the account uploaded (tools/sharefile); another account's or an unknown id answers 404.
 */
export async function sampleScreenshotModel(deps: ScreenshotDeps, accountId: string, query: ScreenshotQuery): Promise<ScreenshotModel> {
  const messages = await Promise.all(
    query.messages.map(async (message) => {
      const picture = message.pictureId === null ? null : await storedPicture(deps, accountId, message.pictureId);
      if (message.pictureId !== null && picture === null) throw notFound(SCREENSHOT_PICTURE);
      return { outgoing: message.outgoing, text: message.text.trim(), picture };
    }),
  );
  return { name: query.name, initials: initialsOf(query.name), time: query.time, stamp: `Today ${query.time}`, messages };
}
