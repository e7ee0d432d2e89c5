import {
  saveSimulatorSettingsSchema,
  type SaveSimulatorSettings,
  type SimulatorCallActionName,
  type SimulatorErrorStage,
  type SimulatorMessage,
  type SimulatorNumber,
  type SimulatorPhone,
  type SimulatorSettings,
} from '@parley/shared';

/** The business number a phone answers by default: the one it talked with last, if the account still has it. */
export function defaultBusinessNumber(phone: Pick<SimulatorPhone, 'businessNumbers'>, numbers: readonly SimulatorNumber[]): string | null {
  const active = new Set(numbers.map((n) => n.number));
  return phone.businessNumbers.find((n) => active.has(n)) ?? numbers[0]?.number ?? null;
}

/** Where a thread item sits: what the business sent on the left, what the phone sent on the right, calls across. */
export type BubbleSide = 'received' | 'sent' | 'call';

export function bubbleSide(kind: SimulatorMessage['kind']): BubbleSide {
  switch (kind) {
    case 'mt':
      return 'received';
    case 'mo':
      return 'sent';
    case 'call':
      return 'call';
  }
}

const withError = (label: string, message: SimulatorMessage): string =>
  message.error === null ? label : `${label}: ${message.error.code} ${message.error.text}`.trimEnd();

/** The caption under a thread item: what became of it. */
export function statusLine(message: SimulatorMessage): string {
  switch (message.kind) {
    case 'mt':
      switch (message.status) {
        case 'accepted':
          return 'Sent';
        case 'delivered':
          return 'Delivered';
        case 'undelivered':
          return withError('Undelivered', message);
        case 'failed':
          return withError('Refused', message);
        default:
          return message.status;
      }
    case 'mo':
      return message.status === 'handed' ? 'Received by the business' : 'Sending…';
    case 'call':
      return callStatusLine(message.status);
  }
}

/** A call's state as its phone shows it: a verification call is only placed; a voice call rings, talks, ends. */
function callStatusLine(status: string): string {
  switch (status) {
    case 'placed':
      return 'Verification call';
    case 'ringing':
      return 'Ringing';
    case 'talking':
      return 'Connected';
    case 'declined':
      return 'Declined';
    case 'ended':
      return 'Call ended';
    default:
      return status;
  }
}

/** The buttons a call shows on its phone: Answer and Decline while it rings, Hang up while connected. */
export function callButtons(message: Pick<SimulatorMessage, 'kind' | 'status'>): SimulatorCallActionName[] {
  if (message.kind !== 'call') return [];
  if (message.status === 'ringing') return ['answer', 'decline'];
  if (message.status === 'talking') return ['hangUp'];
  return [];
}

export const callButtonLabels: Record<SimulatorCallActionName, string> = { answer: 'Answer', decline: 'Decline', hangUp: 'Hang up' };

/** A failure rate as people say it: 0.125 → '12.5%'. */
export const percent = (rate: number): string => `${String(Number((rate * 100).toFixed(2)))}%`;

/** The settings form holds text, as the fields give it. */
export interface SettingsForm {
  seed: string;
  latencyMs: string;
  failureRate: string;
  messagesPerSecond: string;
  errorCodes: { code: string; text: string; stage: SimulatorErrorStage }[];
}

export const formFromSettings = (settings: SimulatorSettings): SettingsForm => ({
  seed: String(settings.seed),
  latencyMs: String(settings.latencyMs),
  failureRate: String(settings.failureRate),
  messagesPerSecond: String(settings.messagesPerSecond),
  errorCodes: settings.errorCodes.map(({ code, text, stage }) => ({ code, text, stage })),
});

/** A blank field is no number at all (Number('') would be 0). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

export type SettingsFormResult =
  | { ok: true; value: SaveSimulatorSettings }
  | { ok: false; errors: Record<string, string> };

/**
 * The form checked by the same schema the server uses. Errors are keyed by field (`latencyMs`,
 * `errorCodes`, `errorCodes.1.code` ...), the first message of each.
 */
export function settingsFromForm(form: SettingsForm): SettingsFormResult {
  const parsed = saveSimulatorSettingsSchema.safeParse({
    seed: numberOf(form.seed),
    latencyMs: numberOf(form.latencyMs),
    failureRate: numberOf(form.failureRate),
    messagesPerSecond: numberOf(form.messagesPerSecond),
    errorCodes: form.errorCodes,
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
