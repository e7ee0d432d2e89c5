import { describe, expect, it } from 'vitest';
import { deliveryHealthLevel } from './deliveryHealth.js';

describe('delivery health level', () => {
  it('is none with nothing sent or opted out, and green when all went well', () => {
    expect(deliveryHealthLevel({ delivered: 0, errors: 0, recipients: 0, optOuts: 0 })).toBe('none');
    expect(deliveryHealthLevel({ delivered: 100, errors: 2, recipients: 100, optOuts: 0 })).toBe('green');
  });

  it('turns amber, then red, with the error rate of a sample large enough', () => {
    expect(deliveryHealthLevel({ delivered: 96, errors: 4, recipients: 100, optOuts: 0 })).toBe('amber');
    expect(deliveryHealthLevel({ delivered: 90, errors: 10, recipients: 100, optOuts: 0 })).toBe('red');
  });

  it('turns amber, then red, with opt-outs per recipient', () => {
    expect(deliveryHealthLevel({ delivered: 1000, errors: 0, recipients: 1000, optOuts: 5 })).toBe('amber');
    expect(deliveryHealthLevel({ delivered: 1000, errors: 0, recipients: 1000, optOuts: 20 })).toBe('red');
  });

  it('in a small sample, is amber as soon as a text failed, never red from rates alone', () => {
    expect(deliveryHealthLevel({ delivered: 3, errors: 0, recipients: 3, optOuts: 0 })).toBe('green');
    expect(deliveryHealthLevel({ delivered: 2, errors: 1, recipients: 3, optOuts: 0 })).toBe('amber');
    expect(deliveryHealthLevel({ delivered: 0, errors: 0, recipients: 0, optOuts: 1 })).toBe('amber');
  });
});
