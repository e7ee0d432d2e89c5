import type { MessageMedia } from '@parley/shared';

/** The item the route's idx names: a whole number within the list, else null (a page that shows nothing made up). */
export const mediaItemAt = (media: readonly MessageMedia[], idx: string): MessageMedia | null => {
  if (!/^\d{1,3}$/.test(idx)) return null;
  return media[Number(idx)] ?? null;
};
