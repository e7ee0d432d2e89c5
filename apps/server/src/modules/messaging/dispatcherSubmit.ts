import type { Carrier, CarrierName, OutboundMessage, SubmitResult } from '../carriers/index.js';
import type { CarrierRegistry } from '../carriers/index.js';
import type { ClaimedMessage } from './dispatcherClaim.js';

/** What became of one submit: the carrier's answer, or an error thrown on the way (a retryable failure). */
export type SubmitOutcome =
  | { message: ClaimedMessage; kind: 'accepted'; carrier: CarrierName; carrierMessageId: string }
  | { message: ClaimedMessage; kind: 'refused'; errorCode: string; errorText: string }
  | { message: ClaimedMessage; kind: 'retry'; errorCode: string; errorText: string };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The message as the carrier gets it: the body as stored is the text as charged (after smart encoding). */
export function outboundMessage(message: ClaimedMessage): OutboundMessage {
  return {
    id: message.id,
    accountId: message.accountId,
    from: message.from,
    to: message.to,
    text: message.body,
    encoding: message.encoding,
    segments: message.segments,
    media: message.media.map((item) => ({ url: item.url, contentType: item.type })),
  };
}

function outcomeOf(message: ClaimedMessage, carrier: CarrierName, result: SubmitResult): SubmitOutcome {
  if (result.accepted) return { message, kind: 'accepted', carrier, carrierMessageId: result.carrierMessageId };
  return {
    message,
    kind: result.retryable ? 'retry' : 'refused',
    errorCode: result.errorCode,
    errorText: result.errorText,
  };
}

async function submitGroup(carrier: Carrier, group: readonly ClaimedMessage[], concurrency: number): Promise<SubmitOutcome[]> {
  const thrown = (message: ClaimedMessage, error: unknown): SubmitOutcome => ({
    message,
    kind: 'retry',
    errorCode: 'submit-error',
    errorText: errorText(error),
  });
  if (carrier.sendMany) {
    try {
      const results = await carrier.sendMany(group.map(outboundMessage));
      if (results.length !== group.length) {
        throw new Error(`the ${carrier.name} carrier answered ${results.length} results for ${group.length} messages`);
      }
      return group.map((message, i) => outcomeOf(message, carrier.name, results[i] as SubmitResult));
    } catch (error) {
      return group.map((message) => thrown(message, error));
    }
  }
  const outcomes: SubmitOutcome[] = new Array<SubmitOutcome>(group.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < group.length) {
      const index = next++;
      const message = group[index] as ClaimedMessage;
      try {
        outcomes[index] = outcomeOf(message, carrier.name, await carrier.send(outboundMessage(message)));
      } catch (error) {
        outcomes[index] = thrown(message, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, group.length) }, worker));
  return outcomes;
}

/**
 * Hands a claim to the carriers: one group per carrier connection, all groups at once; within a group
 * `sendMany` when the adapter has it, else `send` with at most `concurrency` submits in flight. Never
 * throws: whatever goes wrong becomes a retryable outcome of the messages concerned.
 */
export async function submitClaim(
  carriers: CarrierRegistry,
  messages: readonly ClaimedMessage[],
  concurrency: number,
): Promise<SubmitOutcome[]> {
  const groups = new Map<string, ClaimedMessage[]>();
  for (const message of messages) {
    const key = `${message.carrier}:${message.carrierSettingsId ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(message);
    else groups.set(key, [message]);
  }
  const results = await Promise.all(
    [...groups.values()].map(async (group) => {
      const first = group[0] as ClaimedMessage;
      let carrier: Carrier;
      try {
        carrier = await carriers.forNumber({ carrier: first.carrier, carrierSettingsId: first.carrierSettingsId });
      } catch (error) {
        return group.map(
          (message): SubmitOutcome => ({ message, kind: 'retry', errorCode: 'carrier-unavailable', errorText: errorText(error) }),
        );
      }
      return submitGroup(carrier, group, concurrency);
    }),
  );
  return results.flat();
}
