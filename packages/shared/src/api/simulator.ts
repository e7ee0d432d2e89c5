import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { listResponse, recordResponse } from './pagination.js';

/**
 * The simulator carrier (the embedded default): virtual phones that show what the business sent them and
 * answer, and the settings of the simulated network (latency, failures, rate, seed).
 */

export const SIMULATOR_LATENCY_MAX_MS = 60_000;
export const SIMULATOR_RATE_MAX = 10_000;
export const SIMULATOR_ERROR_CODES_MAX = 20;
export const SIMULATOR_BODY_MAX = 1600;
/** The web page asks for this many phones and this many messages of each thread. */
export const SIMULATOR_PHONES_PAGE = 24;
export const SIMULATOR_THREAD_PAGE = 50;

export const SIMULATOR_ERROR_CODES_NEEDED_MESSAGE = 'Add at least one error code when the failure rate is above 0';
export const SIMULATOR_ERROR_CODES_UNIQUE_MESSAGE = 'Each error code may appear once';
export const SIMULATOR_FAILURE_RATE_MESSAGE = 'The failure rate must be between 0 and 1 with at most 4 decimals';
export const SIMULATOR_MESSAGE_OR_PICTURE_MESSAGE = 'Write a message or send a picture';
export const SIMULATOR_NUMBER_MESSAGE = "Text one of this account's active simulator numbers";
export const SIMULATOR_OWN_NUMBER_MESSAGE = 'A virtual phone cannot be one of the numbers it texts';
/** The empty state of the /simulator page. */
export const SIMULATOR_EMPTY_MESSAGE =
  "No virtual phones yet. A phone appears here as soon as this account texts a number: send a message to any contact and the contact's phone shows it, ready to reply.";

/** Where a failure happens: refused at submit, or accepted and later reported undelivered. */
export const simulatorErrorStages = ['submit', 'delivery'] as const;
export type SimulatorErrorStage = (typeof simulatorErrorStages)[number];

export const simulatorErrorCodeSchema = z
  .object({
    code: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required })
      .max(20, { message: 'At most 20 characters' }),
    text: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required })
      .max(200, { message: 'At most 200 characters' }),
    stage: z.enum(simulatorErrorStages, { message: "The stage is 'submit' or 'delivery'" }),
  })
  .meta({ id: 'SimulatorErrorCode' });

export type SimulatorErrorCode = z.infer<typeof simulatorErrorCodeSchema>;

export const simulatorSettingsSchema = z
  .object({
    seed: z.number().int(),
    latencyMs: z.number().int(),
    /** 0 to 1, at most 4 decimals: the share of messages that fail. */
    failureRate: z.number(),
    messagesPerSecond: z.number().int(),
    errorCodes: z.array(simulatorErrorCodeSchema),
    updated: z.object({ at: z.string() }),
  })
  .meta({ id: 'SimulatorSettings' });

export type SimulatorSettings = z.infer<typeof simulatorSettingsSchema>;
export const simulatorSettingsRecordSchema = recordResponse(simulatorSettingsSchema);

const wholeNumber = (what: string, min: number, max: number) =>
  z
    .number({ message: validationMessages.number })
    .int({ message: `${what} must be a whole number` })
    .min(min, { message: `${what} must be between ${String(min)} and ${String(max)}` })
    .max(max, { message: `${what} must be between ${String(min)} and ${String(max)}` });

const hasAtMostFourDecimals = (value: number): boolean => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6;

/** PUT /v1/accounts/{acc}/simulator/settings: every field, as the settings panel sends them. */
export const saveSimulatorSettingsSchema = z
  .object({
    seed: wholeNumber('The seed', -2_147_483_648, 2_147_483_647),
    latencyMs: wholeNumber('The latency', 0, SIMULATOR_LATENCY_MAX_MS),
    failureRate: z
      .number({ message: validationMessages.number })
      .min(0, { message: SIMULATOR_FAILURE_RATE_MESSAGE })
      .max(1, { message: SIMULATOR_FAILURE_RATE_MESSAGE })
      .refine(hasAtMostFourDecimals, { message: SIMULATOR_FAILURE_RATE_MESSAGE }),
    messagesPerSecond: wholeNumber('Messages per second', 1, SIMULATOR_RATE_MAX),
    errorCodes: z
      .array(simulatorErrorCodeSchema)
      .max(SIMULATOR_ERROR_CODES_MAX, { message: `At most ${String(SIMULATOR_ERROR_CODES_MAX)} error codes` }),
  })
  .superRefine((value, ctx) => {
    if (value.failureRate > 0 && value.errorCodes.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['errorCodes'], message: SIMULATOR_ERROR_CODES_NEEDED_MESSAGE });
    }
    const codes = value.errorCodes.map((e) => e.code);
    if (new Set(codes).size !== codes.length) {
      ctx.addIssue({ code: 'custom', path: ['errorCodes'], message: SIMULATOR_ERROR_CODES_UNIQUE_MESSAGE });
    }
  })
  .meta({ id: 'SaveSimulatorSettings' });

export type SaveSimulatorSettings = z.infer<typeof saveSimulatorSettingsSchema>;

/** A virtual phone that exchanged messages or calls with the account's numbers. */
export const simulatorPhoneSchema = z
  .object({
    number: z.string(),
    country: z.string().nullable(),
    /** The account's numbers it exchanged messages with, the latest first. */
    businessNumbers: z.array(z.string()),
    counts: z.object({
      received: z.number().int().describe('messages the business sent it'),
      sent: z.number().int().describe('messages it sent the business'),
      calls: z.number().int().describe('verification calls it took'),
    }),
    /** The newest message or call: phones are listed by it. */
    lastActivity: z.object({ at: z.string() }),
    /** The last change to its thread (a new message, a receipt): the thread is fetched again when it moves. */
    updated: z.object({ at: z.string() }),
  })
  .meta({ id: 'SimulatorPhone' });

export type SimulatorPhone = z.infer<typeof simulatorPhoneSchema>;
export const simulatorPhoneListSchema = listResponse(simulatorPhoneSchema);

export const simulatorMessageKinds = ['mt', 'mo', 'call'] as const;
export type SimulatorMessageKind = (typeof simulatorMessageKinds)[number];

/**
 * One item of a phone's thread: `mt` the business sent it (status accepted → delivered | undelivered, or
 * failed when refused at submit), `mo` it sent the business (pending → handed), `call` a verification call.
 */
export const simulatorMessageSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(simulatorMessageKinds),
    businessNumber: z.string(),
    phoneNumber: z.string(),
    body: z.string(),
    media: z.array(z.object({ url: z.string(), contentType: z.string() })),
    status: z.string(),
    error: z.object({ code: z.string(), text: z.string() }).nullable(),
    created: z.object({ at: z.string() }),
  })
  .meta({ id: 'SimulatorMessage' });

export type SimulatorMessage = z.infer<typeof simulatorMessageSchema>;
export const simulatorMessageListSchema = listResponse(simulatorMessageSchema);
export const simulatorMessageRecordSchema = recordResponse(simulatorMessageSchema);

/** A thread: the latest `limit` items, oldest first. */
export const simulatorThreadQuerySchema = z.object({
  limit: z.coerce
    .number({ message: validationMessages.number })
    .int({ message: validationMessages.number })
    .min(1, { message: 'Minimum value is 1' })
    .max(200, { message: 'Maximum value is 200' })
    .default(SIMULATOR_THREAD_PAGE),
});

/** POST .../simulator/phones/{phone}/messages: the virtual phone texts one of the account's numbers. */
export const simulatorPhoneMessageSchema = z
  .object({
    to: z.string({ message: validationMessages.required }).trim().min(1, { message: validationMessages.required }),
    body: z
      .string()
      .max(SIMULATOR_BODY_MAX, { message: `At most ${String(SIMULATOR_BODY_MAX)} characters` })
      .default(''),
    picture: z.boolean().default(false),
  })
  .refine((value) => value.picture || value.body.trim() !== '', { path: ['body'], message: SIMULATOR_MESSAGE_OR_PICTURE_MESSAGE })
  .meta({ id: 'SimulatorPhoneMessage' });

export type SimulatorPhoneMessage = z.infer<typeof simulatorPhoneMessageSchema>;
export type SimulatorPhoneMessageInput = z.input<typeof simulatorPhoneMessageSchema>;

/** The account's active simulator numbers, which a virtual phone may text. */
export const simulatorNumberListSchema = z
  .object({ data: z.array(z.object({ number: z.string(), name: z.string() })) })
  .meta({ id: 'SimulatorNumberList' });

export type SimulatorNumber = z.infer<typeof simulatorNumberListSchema>['data'][number];

/** POST .../simulator/phones/{phone}/calls: the virtual phone calls one of the account's numbers (docs/calls.md). */
export const simulatorPhoneCallSchema = z
  .object({ to: z.string({ message: validationMessages.required }).trim().min(1, { message: validationMessages.required }) })
  .meta({ id: 'SimulatorPhoneCall' });
export type SimulatorPhoneCall = z.infer<typeof simulatorPhoneCallSchema>;

/** The buttons of a voice call on a virtual phone: Answer and Decline while it rings, Hang up while it lasts. */
export const simulatorCallActions = ['answer', 'decline', 'hangUp'] as const;
export type SimulatorCallActionName = (typeof simulatorCallActions)[number];

/** POST .../simulator/phones/{phone}/calls/{id}: press a button of the call on that phone. */
export const simulatorCallActionSchema = z
  .object({ action: z.enum(simulatorCallActions, { message: 'Must be answer, decline or hangUp' }) })
  .meta({ id: 'SimulatorCallAction' });

export const SIMULATOR_CALL_STALE_MESSAGE = 'The call has moved on: refresh the phone.';
