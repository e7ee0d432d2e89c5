import { NOTIFICATION_DESTINATION_TAKEN_MESSAGE, NOTIFICATIONS_LIMIT_MESSAGE } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { saveErrorsOf } from './fieldErrors';

const invalid = (message: string) => new ApiError(message, 400, 'validation_failed');

describe('saveErrorsOf', () => {
  it('puts each validation message on its field', () => {
    expect(saveErrorsOf(invalid('destination: Valid URL with http or https prefix required; eventTypes.0: Event types are a, b'))).toEqual({
      fields: { destination: 'Valid URL with http or https prefix required', events: 'Event types are a, b' },
      form: null,
    });
  });

  it('maps the filters by their path, an item of a list too', () => {
    const error = invalid(
      'filters.groups: Every group must be a group of this account; filters.phoneNumbers.0: Not a phone number id; filters.direction: Invalid option',
    );
    expect(saveErrorsOf(error)).toEqual({
      fields: {
        groups: 'Every group must be a group of this account',
        phoneNumbers: 'Not a phone number id',
        direction: 'Invalid option',
      },
      form: null,
    });
  });

  it("lands the server's refusal of a webhook address on Destination, a '; ' inside a message kept", () => {
    expect(saveErrorsOf(invalid('destination: 127.0.0.1 is not a public address (loopback)'))).toEqual({
      fields: { destination: '127.0.0.1 is not a public address (loopback)' },
      form: null,
    });
    expect(saveErrorsOf(invalid('destination: a note; with a semicolon; eventTypes: Event types are a, b'))).toEqual({
      fields: { destination: 'a note; with a semicolon', events: 'Event types are a, b' },
      form: null,
    });
  });

  it('keeps the first message of a field, and what names no field under the form', () => {
    expect(saveErrorsOf(invalid('type: A notification keeps its type: remove it and add another; destination: Required; destination: Too long'))).toEqual({
      fields: { destination: 'Required' },
      form: 'type: A notification keeps its type: remove it and add another',
    });
  });

  it('puts a destination taken on Destination and other refusals under the form', () => {
    expect(saveErrorsOf(new ApiError(NOTIFICATION_DESTINATION_TAKEN_MESSAGE, 409, 'conflict'))).toEqual({
      fields: { destination: NOTIFICATION_DESTINATION_TAKEN_MESSAGE },
      form: null,
    });
    expect(saveErrorsOf(new ApiError(NOTIFICATIONS_LIMIT_MESSAGE, 409, 'conflict'))).toEqual({ fields: {}, form: NOTIFICATIONS_LIMIT_MESSAGE });
    expect(saveErrorsOf(new ApiError('destination: looks like a field', 500))).toEqual({ fields: {}, form: 'destination: looks like a field' });
  });
});
