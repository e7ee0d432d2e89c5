import { describe, expect, it } from 'vitest';
import { boardFrameUrl } from './boardFrameUrl';

describe("the external board's frame address", () => {
  it('carries the sign-on token and the board, keeping what the address has', () => {
    expect(boardFrameUrl('https://board.example.com/embed', 'a.b.c')).toBe('https://board.example.com/embed?ssoToken=a.b.c&board=feature-requests');
    expect(boardFrameUrl('https://board.example.com/embed?board=ideas&lang=en', 'a.b.c')).toBe(
      'https://board.example.com/embed?board=ideas&lang=en&ssoToken=a.b.c',
    );
  });
});
