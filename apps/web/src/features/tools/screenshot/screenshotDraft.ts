import { SCREENSHOT_DEFAULT_TIME, SCREENSHOT_MESSAGES_MAX, screenshotQuerySchema, type ScreenshotScale } from '@parley/shared';

/** A picture of a sample message: the uploaded file's id (tools/sharefile) and the name it had. */
export interface DraftPicture {
  id: string;
  name: string;
}

export interface DraftMessage {
  /** Tells the rows apart while they are added and removed. */
  key: number;
  outgoing: boolean;
  text: string;
  picture: DraftPicture | null;
}

export interface ScreenshotDraft {
  name: string;
  time: string;
  messages: DraftMessage[];
}

/** What the page starts with, so the preview shows at once: a customer's question and the business's answer. */
export const initialDraft = (): ScreenshotDraft => ({
  name: 'Alex Morgan',
  time: SCREENSHOT_DEFAULT_TIME,
  messages: [
    { key: 1, outgoing: false, text: 'Hi! Is my order ready for pickup?', picture: null },
    { key: 2, outgoing: true, text: 'Yes, it is! See you at the front desk 😊', picture: null },
  ],
});

export const canAddMessage = (draft: ScreenshotDraft): boolean => draft.messages.length < SCREENSHOT_MESSAGES_MAX;

/** The draft with one more message, on the other side from the last one. */
export function withMessage(draft: ScreenshotDraft): ScreenshotDraft {
  if (!canAddMessage(draft)) return draft;
  const last = draft.messages.at(-1);
  const key = Math.max(0, ...draft.messages.map((m) => m.key)) + 1;
  return { ...draft, messages: [...draft.messages, { key, outgoing: !(last?.outgoing ?? true), text: '', picture: null }] };
}

/** The query's parameters as the API takes them: one `messages`, `outgoing` and `pictures` value per message. */
function fields(draft: ScreenshotDraft) {
  return {
    name: draft.name,
    time: draft.time,
    messages: draft.messages.map((m) => m.text),
    outgoing: draft.messages.map((m) => String(m.outgoing)),
    pictures: draft.messages.map((m) => m.picture?.id ?? ''),
  };
}

/** The query string of GET tools/screenshots/ios for the draft. */
export function screenshotSearch(draft: ScreenshotDraft, scale: ScreenshotScale): string {
  const { name, time, messages, outgoing, pictures } = fields(draft);
  const params = new URLSearchParams({ name, time });
  messages.forEach((text, index) => {
    params.append('messages', text);
    params.append('outgoing', outgoing[index] ?? 'false');
    params.append('pictures', pictures[index] ?? '');
  });
  params.set('scale', String(scale));
  return params.toString();
}

export interface DraftProblems {
  name?: string;
  time?: string;
  /** By the message's index. */
  messages: Record<number, string>;
}

/** What the server would refuse, with its messages: the shared schema checks the draft before it is sent. */
export function draftProblems(draft: ScreenshotDraft): DraftProblems | null {
  const parsed = screenshotQuerySchema.safeParse(fields(draft));
  if (parsed.success) return null;
  const problems: DraftProblems = { messages: {} };
  for (const issue of parsed.error.issues) {
    const [field, index] = issue.path;
    if (field === 'name') problems.name ??= issue.message;
    else if (field === 'time') problems.time ??= issue.message;
    else if (field === 'messages' && typeof index === 'number') problems.messages[index] ??= issue.message;
  }
  return problems;
}

/** The id of an uploaded file from its link (`.../v1/accounts/{acc}/media/{fileId}`). */
export const fileIdOf = (link: string): string | null => /\/media\/([0-9a-f-]{36})$/i.exec(link)?.[1] ?? null;
