import { z } from 'zod';
import { requiredText } from '../forms.js';
import { hasNulCharacter, NUL_CHARACTER_MESSAGE } from '../validation.js';
import { MESSAGE_TEXT_MAX } from './messages.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * Auto responders (docs/autoResponders.md): an inbound message that matches `match`
 * is answered with `response` (tokens rendered for the contact). Simple (`advanced: false`): the match is
 * a word or phrase found whole, ignoring case. Advanced: the match is a regular expression in RE2 syntax,
 * case-insensitive unless it says `(?-i)`. The server checks Advanced patterns (RE2 runs there only; the
 * web shows the server's message on the field). docs/autoResponders.md has the rules.
 */

export const AUTO_RESPONDER_MATCH_MAX = 200;
/** The response is a message: as long as any message may be. */
export const AUTO_RESPONDER_RESPONSE_MAX = MESSAGE_TEXT_MAX;
/** Every inbound message is tried against each responder of its account, so an account has a bounded number. */
export const AUTO_RESPONDERS_MAX = 100;

export const AUTO_RESPONDERS_EMPTY_STATE = 'No Auto Responders Exist';
export const AUTO_RESPONDER_DIALOG_TITLE = 'Auto Responder';
export const AUTO_RESPONDER_MATCH_TAKEN_MESSAGE = 'An auto responder with this match already exists';
export const AUTO_RESPONDERS_MAX_MESSAGE = `An account has at most ${String(AUTO_RESPONDERS_MAX)} auto responders`;
export const AUTO_RESPONDERS_TRIAL_MESSAGE =
  'Auto responders are not available on a trial plan. Change the plan to use auto responders.';
export const AUTO_RESPONDER_SAVE_FAILED_MESSAGE = 'Failed to save auto responder';
/** The start of every message about an Advanced match the server cannot use. */
export const INVALID_PATTERN_PREFIX = 'Invalid regular expression: ';

/** message.eventType of an auto responder's reply. */
export const AUTO_RESPONDER_EVENT_TYPE = 'autoResponder';

export const autoResponderKinds = ['Simple', 'Advanced'] as const;
export type AutoResponderKind = (typeof autoResponderKinds)[number];

export const autoResponderKind = (advanced: boolean): AutoResponderKind => (advanced ? 'Advanced' : 'Simple');

export const autoResponderSchema = z
  .object({
    id: z.uuid(),
    match: z.string(),
    response: z.string(),
    advanced: z.boolean(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'AutoResponder' });

export type AutoResponder = z.infer<typeof autoResponderSchema>;

export const autoResponderListSchema = listResponse(autoResponderSchema).meta({ id: 'AutoResponderList' });
export const autoResponderRecordSchema = recordResponse(autoResponderSchema).meta({ id: 'AutoResponderRecord' });

/** GET /v1/accounts/{acc}/autoresponders: oldest first (the order they are tried in). */
export const autoResponderListQuerySchema = listQuerySchema;

// PostgreSQL text cannot hold NUL, and no carrier sends it.
const withoutNul = (schema: ReturnType<typeof requiredText>) =>
  schema.refine((text) => !hasNulCharacter(text), { message: NUL_CHARACTER_MESSAGE });

/**
 * POST /v1/accounts/{acc}/autoresponders and PUT .../autoresponders/{id} (the whole responder: `advanced`
 * is false unless sent). Both texts are trimmed and required. On the server an Advanced match must also
 * compile as RE2 ('Invalid regular expression: ...' on `match`).
 */
export const saveAutoResponderSchema = z
  .object({
    match: withoutNul(requiredText(AUTO_RESPONDER_MATCH_MAX)),
    response: withoutNul(requiredText(AUTO_RESPONDER_RESPONSE_MAX)),
    advanced: z.boolean({ message: 'Use true or false' }).default(false),
  })
  .meta({ id: 'SaveAutoResponder' });

export type SaveAutoResponderInput = z.input<typeof saveAutoResponderSchema>;
export type SaveAutoResponder = z.output<typeof saveAutoResponderSchema>;
