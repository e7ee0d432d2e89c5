import { renderMail, type MailContent } from '../../platform/mail/templates/layout.js';

/** One event of a digest, as its line reads. */
export interface DigestLine {
  type: string;
  at: string;
  summary: string;
}

/** Lines a digest lists at most; the rest are counted by type. */
export const DIGEST_LINES_MAX = 20;

const plural = (n: number, one: string): string => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * Every event a notification gathered in one mail (docs/notifications.md, "E-mail"): how many of each type
 * (most first), then the newest few, one line each.
 */
export function digestMail(input: { accountName: string; lines: readonly DigestLine[]; total: number; countsByType: ReadonlyMap<string, number>; link: string }): MailContent {
  const counts = [...input.countsByType]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, n]) => `${type}: ${n.toLocaleString('en-US')}`).join(', ');
  const shown = input.lines.slice(0, DIGEST_LINES_MAX).map((line) => `${line.at} ${line.type}: ${line.summary}`);
  const more = input.total > shown.length ? [`... and ${plural(input.total - shown.length, 'more event')}.`] : [];
  return renderMail(`${plural(input.total, 'event')} in ${input.accountName}`, {
    intro: [`${plural(input.total, 'event')} happened in ${input.accountName} on Parley (${counts}).`, ...shown, ...more],
    action: { label: 'Open Parley', url: input.link },
    outro: ["You get this because an e-mail notification of the account goes to this address. Its administrators change it under Notifications."],
  });
}

const reasons = {
  gone: 'it answered 410 Gone, which says it wants no more requests',
  failing: 'every delivery to it has failed for 5 days',
} as const;

/** To an account's administrators: Parley disabled one of its webhooks. */
export function endpointDisabledMail(input: { accountName: string; destination: string; reason: keyof typeof reasons; link: string }): MailContent {
  return renderMail(`A webhook of ${input.accountName} was disabled`, {
    intro: [
      `Parley stopped sending events to ${input.destination} because ${reasons[input.reason]}.`,
      'Events that happen while it is disabled are not sent to it. Fix the endpoint, then enable the notification again.',
    ],
    action: { label: 'Open Notifications', url: input.link },
    outro: ['You get this as an administrator of the account.'],
  });
}
