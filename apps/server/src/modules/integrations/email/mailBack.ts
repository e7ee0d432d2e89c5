import type { Mailer } from '../../../platform/mail/index.js';

/** `Re: <subject>`, once. */
export const replySubject = (subject: string): string => (/^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`.trimEnd());

/** The threading headers of a reply to a mail (RFC 5322 3.6.4). */
export function threadHeaders(thread: { messageId: string | null; references: readonly string[] }): Record<string, string> {
  if (thread.messageId === null) return {};
  return { 'In-Reply-To': thread.messageId, References: [...thread.references, thread.messageId].join(' ') };
}

/**
 * Tells a mail's sender that its text was not sent. Best effort: the refusal is recorded in the log
 * whatever the mail server answers, and a sender who cannot be reached is no reason to refuse the mail again.
 */
export async function mailBack(mailer: Mailer, input: { to: string; subject: string; text: string; from?: string; thread: { messageId: string | null; references: readonly string[] } }): Promise<void> {
  try {
    await mailer.send({ to: input.to, subject: input.subject, text: input.text, headers: threadHeaders(input.thread), ...(input.from === undefined ? {} : { from: input.from }) });
  } catch {
    // Recorded already; see above.
  }
}
