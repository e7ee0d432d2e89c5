import { z } from 'zod';
import { emailAddress } from '../forms.js';

/**
 * Account reports (docs/reports.md: reports/dailycounts, reports/messages, reports/optout; account
 * settings 'report downloads (Summary, Detailed, Opted Out)'). Administrators only (`reports.download`).
 * docs/reports.md has the columns and rules.
 *
 * - Summary: GET .../reports/dailycounts?from=&to= answers a CSV, one row per UTC day of the window.
 * - Opted Out: GET .../reports/optout answers a CSV of the account's opt-outs.
 * - Detailed: GET .../reports/messages?email= answers 202 at once; every message of the account is written
 *   to a CSV in the background and a signed link to it, valid REPORT_LINK_TTL_DAYS days, is e-mailed.
 */

export const REPORT_SUMMARY_LABEL = 'Summary';
export const REPORT_DETAILED_LABEL = 'Detailed';
export const REPORT_OPTED_OUT_LABEL = 'Opted Out';

/** Days in the summary's window when the query names none. */
export const DAILY_COUNTS_DEFAULT_DAYS = 90;
/** The longest window a summary covers. */
export const DAILY_COUNTS_MAX_DAYS = 366;
/** How long the e-mailed link of a detailed report works; the file is removed after it. */
export const REPORT_LINK_TTL_DAYS = 7;

export const dailyCountsCsvColumns = [
  'date',
  'outbound messages',
  'outbound segments',
  'delivered',
  'failed',
  'inbound',
  'opt-outs',
  'spend',
] as const;

export const optOutCsvColumns = ['mobile', 'name', 'email', 'opted out at', 'source'] as const;

export const messagesCsvColumns = [
  'date',
  'direction',
  'from',
  'to',
  'contact',
  'body',
  'status',
  'error',
  'segments',
  'price',
] as const;

export const REPORT_DATE_MESSAGE = 'Use a date as YYYY-MM-DD.';
export const REPORT_WINDOW_ORDER_MESSAGE = 'The start date must not be after the end date.';
export const REPORT_WINDOW_TOO_LONG_MESSAGE = `A summary covers at most ${String(DAILY_COUNTS_MAX_DAYS)} days.`;
export const REPORT_LINK_EXPIRED_MESSAGE = 'This report link has expired. Request the report again.';
export const REPORT_LINK_INVALID_MESSAGE = 'This report link is not valid.';
export const reportEmailedMessage = (email: string): string =>
  `The detailed report is being prepared. A link to download it will be e-mailed to ${email}.`;

const DAY_MS = 86_400_000;

/** Milliseconds of a 'YYYY-MM-DD' day at 00:00 UTC, or null when it is no day of the calendar. */
export function utcDayStart(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const probe = new Date(ms);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day ? ms : null;
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const reportDate = z.string().refine((value) => utcDayStart(value) !== null, { message: REPORT_DATE_MESSAGE });

/** GET .../reports/dailycounts: both days inclusive, UTC. Defaults: see dailyCountsWindow. */
export const dailyCountsQuerySchema = z
  .object({ from: reportDate.optional(), to: reportDate.optional() })
  .superRefine((query, context) => {
    const from = query.from === undefined ? null : utcDayStart(query.from);
    const to = query.to === undefined ? null : utcDayStart(query.to);
    if (from === null || to === null) return;
    if (from > to) context.addIssue({ code: 'custom', path: ['from'], message: REPORT_WINDOW_ORDER_MESSAGE });
    else if ((to - from) / DAY_MS + 1 > DAILY_COUNTS_MAX_DAYS) {
      context.addIssue({ code: 'custom', path: ['to'], message: REPORT_WINDOW_TOO_LONG_MESSAGE });
    }
  });

export type DailyCountsQuery = z.output<typeof dailyCountsQuerySchema>;

/**
 * The days a summary covers: `to` defaults to today (UTC) or, with only `from`, to the last day of a
 * default-length window from it (never after today); `from` defaults to DAILY_COUNTS_DEFAULT_DAYS days
 * ending at `to`.
 */
export function dailyCountsWindow(query: DailyCountsQuery, now: Date): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const span = (DAILY_COUNTS_DEFAULT_DAYS - 1) * DAY_MS;
  const givenFrom = query.from === undefined ? null : utcDayStart(query.from);
  const givenTo = query.to === undefined ? null : utcDayStart(query.to);
  const to = givenTo ?? (givenFrom === null ? today : Math.max(givenFrom, Math.min(today, givenFrom + span)));
  const from = givenFrom ?? to - span;
  return { from: utcDay(from), to: utcDay(to) };
}

/** GET .../reports/messages?email=: where the link goes. */
export const messagesReportQuerySchema = z.object({ email: emailAddress });

export type MessagesReportQuery = z.output<typeof messagesReportQuerySchema>;

/** The 202 of a detailed report: where the link will be sent and how long it will work. */
export const messagesReportAcceptedSchema = z
  .object({
    data: z.object({
      email: z.string(),
      linkValidDays: z.number().int(),
    }),
  })
  .meta({ id: 'MessagesReportAccepted' });

export type MessagesReportAccepted = z.infer<typeof messagesReportAcceptedSchema>['data'];

/** GET /v1/reports/files/{id}?expires=&sig=: the e-mailed link; the signature stands in for a token. */
export const signedReportQuerySchema = z.object({
  expires: z.string().optional(),
  sig: z.string().optional(),
});
