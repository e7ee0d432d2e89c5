import { MESSAGE_MEDIA_MAX, type MessageMedia } from '@parley/shared';

export interface ReplyDraft {
  template: string;
  media: readonly MessageMedia[];
}

/** Send waits for text or an attachment (media alone sends an empty text), and a verified email. */
export const canReply = (draft: ReplyDraft, verified: boolean): boolean =>
  verified && (draft.template.trim() !== '' || draft.media.length > 0) && draft.media.length <= MESSAGE_MEDIA_MAX;
