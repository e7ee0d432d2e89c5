/** Wakes the webhook senders of every worker process: new deliveries, a resend, a test event. */
export const NOTIFICATIONS_CHANNEL = 'parley_notifications';
