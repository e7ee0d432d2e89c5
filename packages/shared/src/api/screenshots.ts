import { z } from 'zod';
import { isValidTimeZone } from '../quietHours.js';
import { validationMessages } from '../validation.js';

// ---------------------------------------------------------------------------------------------------
// Screenshot generator (docs/tools.md, "Screenshot generator")

/** 'Screenshot generator: max 5 messages.' */
export const SCREENSHOT_MESSAGES_MAX = 5;
/** A bubble's text; a phone screen shows a few lines of each, so longer texts are refused (the tool) or cut (a conversation). */
export const SCREENSHOT_TEXT_MAX = 640;
/** The contact's name in the header; a phone cuts it there too. */
export const SCREENSHOT_NAME_MAX = 40;
/** The status bar's clock when none is given. */
export const SCREENSHOT_DEFAULT_TIME = '9:41';
/** Width of the picture at 1x, in CSS pixels (a phone's screen in points). */
export const SCREENSHOT_WIDTH = 390;
export const screenshotScales = [1, 2] as const;
export type ScreenshotScale = (typeof screenshotScales)[number];

export const SCREENSHOT_MESSAGES = {
  tooMany: `At most ${String(SCREENSHOT_MESSAGES_MAX)} messages`,
  none: 'Add at least one message',
  empty: 'Write a text or add a picture',
  textTooLong: `At most ${String(SCREENSHOT_TEXT_MAX)} characters`,
  nameTooLong: `At most ${String(SCREENSHOT_NAME_MAX)} characters`,
  flags: 'Give one outgoing flag (true or false) per message',
  pictures: 'Give one picture per message (an uploaded file id, or empty for none)',
  time: 'Use a time like 9:41',
  scale: 'Use 1 or 2',
  timeZone: 'Unknown time zone',
} as const;

/** '9:41' or '21:05'. */
export const SCREENSHOT_TIME_PATTERN = /^([01]?\d|2[0-3]):[0-5]\d$/;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A query parameter that may be repeated: one value arrives as a string, several as an array. */
const repeated = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (value === undefined ? [] : typeof value === 'string' ? [value] : value));

const scaleQuery = z
  .enum(['1', '2'], { message: SCREENSHOT_MESSAGES.scale })
  .default('1')
  .transform((value): ScreenshotScale => (value === '2' ? 2 : 1));

const timeQuery = z.string().trim().regex(SCREENSHOT_TIME_PATTERN, SCREENSHOT_MESSAGES.time);

/** One sample message of the tool: its side, its text and the id of an uploaded picture (tools/sharefile). */
export interface ScreenshotSampleMessage {
  outgoing: boolean;
  text: string;
  pictureId: string | null;
}

const sampleQueryObject = z.object({
  name: z.string({ message: validationMessages.required }).trim().min(1, validationMessages.required).max(SCREENSHOT_NAME_MAX, SCREENSHOT_MESSAGES.nameTooLong),
  time: timeQuery.default(SCREENSHOT_DEFAULT_TIME),
  messages: repeated,
  outgoing: repeated,
  pictures: repeated,
  scale: scaleQuery,
});
type SampleQueryFields = z.output<typeof sampleQueryObject>;

function checkSamples(query: SampleQueryFields, ctx: z.RefinementCtx): void {
  if (query.messages.length === 0) ctx.addIssue({ code: 'custom', path: ['messages'], message: SCREENSHOT_MESSAGES.none });
  if (query.messages.length > SCREENSHOT_MESSAGES_MAX) ctx.addIssue({ code: 'custom', path: ['messages'], message: SCREENSHOT_MESSAGES.tooMany });
  if (query.outgoing.length !== query.messages.length || query.outgoing.some((flag) => flag !== 'true' && flag !== 'false')) {
    ctx.addIssue({ code: 'custom', path: ['outgoing'], message: SCREENSHOT_MESSAGES.flags });
  }
  const pictures = query.pictures;
  if (pictures.length > 0 && (pictures.length !== query.messages.length || pictures.some((id) => id !== '' && !UUID_PATTERN.test(id)))) {
    ctx.addIssue({ code: 'custom', path: ['pictures'], message: SCREENSHOT_MESSAGES.pictures });
  }
  query.messages.forEach((text, index) => {
    if (text.length > SCREENSHOT_TEXT_MAX) ctx.addIssue({ code: 'custom', path: ['messages', index], message: SCREENSHOT_MESSAGES.textTooLong });
    if (text.trim() === '' && (pictures[index] ?? '') === '') ctx.addIssue({ code: 'custom', path: ['messages', index], message: SCREENSHOT_MESSAGES.empty });
  });
}

/** What the renderer is asked for: the parallel lists zipped into messages. */
export interface ScreenshotQuery {
  name: string;
  time: string;
  scale: ScreenshotScale;
  messages: ScreenshotSampleMessage[];
}

const toScreenshotQuery = (query: SampleQueryFields): ScreenshotQuery => ({
  name: query.name,
  time: query.time,
  scale: query.scale,
  messages: query.messages.map((text, index) => ({ outgoing: query.outgoing[index] === 'true', text, pictureId: (query.pictures[index] ?? '') || null })),
});

/**
 * GET /v1/accounts/{acc}/tools/screenshots/ios: the spec's "message list, outgoing flags, time, name" as
 * repeated query parameters, one `messages`, `outgoing` and (optionally) `pictures` value per message in order:
 * `?name=Ada&messages=Hi&outgoing=true&messages=Hello!&outgoing=false`. A picture is the id of a file the
 * account uploaded (tools/sharefile, resized to 500); the server never fetches a URL for it.
 */
export const screenshotQuerySchema = sampleQueryObject.superRefine(checkSamples).transform(toScreenshotQuery);

/** GET /v1/tools/screenshots/ios, the hosted product's path: the same, in the token's account or the one `accountId` names. */
export const contractScreenshotQuerySchema = sampleQueryObject
  .extend({ accountId: z.uuid().optional() })
  .superRefine(checkSamples)
  .transform(toScreenshotQuery);

/**
 * GET /v1/accounts/{acc}/conversations/{id}/screenshot: the last `count` messages, or those `messageIds` names
 * (at most 5, of this conversation), shown in time order. `mask=true` hides the contact's name and number
 * (initials and the number's last 4 digits). Times are shown in `timeZone` (IANA, default UTC).
 */
export const conversationScreenshotQuerySchema = z
  .object({
    count: z.coerce
      .number({ message: 'Must be a number' })
      .int('Must be a whole number')
      .min(1, SCREENSHOT_MESSAGES.none)
      .max(SCREENSHOT_MESSAGES_MAX, SCREENSHOT_MESSAGES.tooMany)
      .default(SCREENSHOT_MESSAGES_MAX),
    messageIds: repeated.pipe(z.array(z.uuid('Not a message id')).max(SCREENSHOT_MESSAGES_MAX, SCREENSHOT_MESSAGES.tooMany)),
    mask: z.enum(['true', 'false'], { message: 'Use true or false' }).default('false').transform((value) => value === 'true'),
    timeZone: z.string().trim().default('UTC').refine(isValidTimeZone, SCREENSHOT_MESSAGES.timeZone),
    scale: scaleQuery,
  });
export type ConversationScreenshotQuery = z.output<typeof conversationScreenshotQuerySchema>;
