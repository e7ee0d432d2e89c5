import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { saveErrorsOf } from './fieldErrors';

describe('saveErrorsOf', () => {
  it('puts validation messages on their fields, media items on media', () => {
    const error = new ApiError(
      "template: Unknown token {{{x}}}: use firstName, lastName, mobile, email or an attribute of the account's contacts; media.0.url: Valid URL with http or https prefix required; optInListId: Required",
      400,
      'validation_failed',
    );
    expect(saveErrorsOf(error)).toEqual({
      fields: {
        template: "Unknown token {{{x}}}: use firstName, lastName, mobile, email or an attribute of the account's contacts",
        media: 'Valid URL with http or https prefix required',
        optInListId: 'Required',
      },
      form: null,
    });
  });

  it('keeps what belongs to no field, and every other answer, for the form', () => {
    expect(saveErrorsOf(new ApiError('Something else; odd; name: Required', 400))).toEqual({ fields: { name: 'Required' }, form: 'Something else; odd' });
    expect(saveErrorsOf(new ApiError('The template was not found.', 404))).toEqual({ fields: {}, form: 'The template was not found.' });
  });
});
