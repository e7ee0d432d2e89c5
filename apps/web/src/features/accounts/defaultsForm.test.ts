import { describe, expect, it } from 'vitest';
import { defaultsFormSchema } from './defaultsForm';

describe('defaultsFormSchema', () => {
  it('sends the frequency when a quantity is typed', () => {
    expect(defaultsFormSchema.parse({ country: 'gb', quantity: ' 3 ', frequency: 'week' })).toEqual({
      country: 'GB',
      messageFrequency: { quantity: 3, frequency: 'week' },
    });
  });

  it('clears the frequency when the quantity is empty', () => {
    expect(defaultsFormSchema.parse({ country: 'US', quantity: '', frequency: 'day' })).toEqual({
      country: 'US',
      messageFrequency: null,
    });
  });

  it('names the quantity when it is not a whole number in range', () => {
    for (const quantity of ['abc', '1.5', '0']) {
      const result = defaultsFormSchema.safeParse({ country: 'US', quantity, frequency: 'month' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['quantity']);
    }
    const words = defaultsFormSchema.safeParse({ country: 'US', quantity: 'abc', frequency: 'month' });
    expect(words.error?.issues[0]?.message).toBe('Must be a number');
  });
});
