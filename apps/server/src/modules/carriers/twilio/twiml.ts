/*
 * The few TwiML documents Parley answers or sends (docs/calls.md). Written here rather than with the `twilio`
 * package's VoiceResponse, which is a development dependency only (its tests check these against it).
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

/** Text as XML writes it. */
const xmlText = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An attribute value in double quotes. */
const xmlAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const attributes = (values: Readonly<Record<string, string>>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(value)}"`)
    .join('');

/**
 * `<Dial>` one number: `callerId` is what the called phone shows; `action` is where Twilio posts how the
 * dialled leg ended (DialCallStatus, DialCallDuration) when the leg is over.
 */
export function dialTwiml(dial: { number: string; callerId: string; action: string }): string {
  return `${XML_HEAD}<Response><Dial${attributes({ callerId: dial.callerId, action: dial.action, method: 'POST' })}><Number>${xmlText(dial.number)}</Number></Dial></Response>`;
}

/** A short message and the end of the call: what a caller hears when nobody can take it. */
export function sayAndHangUpTwiml(text: string): string {
  return `${XML_HEAD}<Response><Say>${xmlText(text)}</Say><Hangup/></Response>`;
}

/** Nothing more to do: the answer to a status callback or a Dial action. */
export const EMPTY_TWIML = `${XML_HEAD}<Response/>`;
