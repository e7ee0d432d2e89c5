import type { Call, Message } from '@parley/shared';

/** One line of a conversation's history: a message, or a call between the messages. */
export type TimelineItem = { kind: 'message'; at: string; message: Message } | { kind: 'call'; at: string; call: Call };

/**
 * Messages (in reading order) and calls (in whatever order they come) as one history, oldest first, by time. While older
 * messages remain to load, calls older than the oldest message shown wait with them: 'Load Older' brings
 * both, so a call never sits above a gap.
 */
export function timeline(messages: readonly Message[], calls: readonly Call[], olderToLoad: boolean): TimelineItem[] {
  const oldest = messages[0]?.created.at;
  const shownCalls = olderToLoad && oldest !== undefined ? calls.filter((c) => Date.parse(c.startedAt) >= Date.parse(oldest)) : calls;
  const items: TimelineItem[] = [
    ...messages.map((message) => ({ kind: 'message' as const, at: message.created.at, message })),
    ...shownCalls.map((call) => ({ kind: 'call' as const, at: call.startedAt, call })),
  ];
  // A stable sort: messages keep their order among themselves.
  return items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
