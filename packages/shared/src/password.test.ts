import { describe, expect, it } from 'vitest';
import { passwordStrength, weakPasswordMessage } from './password.js';

describe('password strength', () => {
  it('needs ten characters and three of the four kinds', () => {
    expect(passwordStrength('Summer-2026').strong).toBe(true);
    expect(passwordStrength('summer-2026').strong).toBe(true);
    expect(passwordStrength('correcthorsebattery').strong).toBe(false);
    expect(passwordStrength('Sh0rt!').strong).toBe(false);
    expect(passwordStrength('ALLUPPERCASE12').strong).toBe(false);
    expect(passwordStrength('').unmet).toEqual(['length', 'lower', 'upper', 'number', 'special']);
  });

  it('lists what is met and what is not', () => {
    expect(passwordStrength('abcdefghij1')).toEqual({
      strong: false,
      met: ['length', 'lower', 'number'],
      unmet: ['upper', 'special'],
    });
  });

  it("says 'Password is too weak' followed by the rules", () => {
    const message = weakPasswordMessage();
    expect(message.split('\n')[0]).toBe('Password is too weak');
    expect(message).toContain('At least 10 characters in length');
    expect(message).toContain('At least 3 of the following 4 types of characters:');
  });
});
