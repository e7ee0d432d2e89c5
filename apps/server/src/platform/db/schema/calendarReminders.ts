import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { contacts } from './contacts.js';
import { integrations } from './integrations.js';
import { messages } from './messaging.js';

/**
 * When a Google Calendar connection's reminders run next (docs/integrations.md, "Google Calendar"). `pattern`
 * is the schedule it was computed from (cron, from, zone): a change of the properties computes it again.
 * The scheduler claims a due row FOR UPDATE SKIP LOCKED and moves it on, so a run happens once across processes.
 */
export const calendarReminderSchedules = pgTable('calendar_reminder_schedules', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  pattern: text('pattern').notNull(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastRunError: text('last_run_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type CalendarReminderScheduleRow = typeof calendarReminderSchedules.$inferSelect;

export const calendarReminderStatuses = ['sent', 'refused'] as const;

/**
 * One reminder per account, calendar, event and attendee, whatever the runs and however the event moves: the
 * unique key is claimed in the send's transaction. `attendee` is the attendee's e-mail (lower case) or the
 * E.164 number found in the event's description or location. A refused send (opted out, no balance) is kept
 * with its reason and not tried again. The cancel columns follow a C or CANCEL reply (docs/integrations.md).
 */
export const calendarReminders = pgTable(
  'calendar_reminders',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calendarId: text('calendar_id').notNull(),
    eventId: text('event_id').notNull(),
    attendee: text('attendee').notNull(),
    /** The attendee's e-mail in the event (null for a number found in the text: no attendee to decline). */
    attendeeEmail: text('attendee_email'),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    eventTitle: text('event_title').notNull(),
    eventStart: timestamp('event_start', { withTimezone: true }).notNull(),
    status: text('status', { enum: calendarReminderStatuses }).notNull(),
    reason: text('reason'),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelError: text('cancel_error'),
  },
  (t) => [
    uniqueIndex('calendar_reminders_event_attendee_idx').on(t.accountId, t.calendarId, t.eventId, t.attendee),
    index('calendar_reminders_contact_idx').on(t.accountId, t.contactId, t.createdAt),
  ],
);
export type CalendarReminderRow = typeof calendarReminders.$inferSelect;
