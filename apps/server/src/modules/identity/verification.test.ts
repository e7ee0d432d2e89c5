import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './verification.js';

describe('safeRedirectPath', () => {
  it('keeps local paths and drops anything that could lead elsewhere', () => {
    expect(safeRedirectPath('/accounts?x=1')).toBe('/accounts?x=1');
    expect(safeRedirectPath('/')).toBe('/');
    for (const bad of ['//evil.test', '/\\evil.test', '/.//evil.test/x', '/..//evil.test', '/\t/evil.test', 'https://evil.test', 'javascript:alert(1)', '/a b', '', undefined, null]) {
      expect(safeRedirectPath(bad)).toBeNull();
    }
  });
});
