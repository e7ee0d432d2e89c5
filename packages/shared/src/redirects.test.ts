import { describe, expect, it } from 'vitest';
import { localPath, sameOriginPath } from './redirects.js';

const origin = 'http://localhost:3000';

/** Targets that must never leave the origin, whatever the caller does with the answer. */
const hostile = [
  'https://evil.example/x',
  '//evil.example/x',
  '/\\evil.example/x',
  '\\\\evil.example/x',
  '/.//evil.example/x',
  '/..//evil.example/x',
  '/./\\evil.example/x',
  'http://localhost:3000//evil.example/x',
  'http://localhost:3000/.//evil.example/x',
  'http://localhost:3000@evil.example/x',
  '/\t/evil.example/x',
  '/\n/evil.example/x',
  ' //evil.example/x',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://localhost:3001/x',
  'https://localhost:3000/x',
];

describe('sameOriginPath', () => {
  it('keeps paths and URLs of the origin, as a path', () => {
    expect(sameOriginPath('/campaigns?x=1#top', origin)).toBe('/campaigns?x=1#top');
    expect(sameOriginPath('/', origin)).toBe('/');
    expect(sameOriginPath('http://localhost:3000/contacts?q=a', origin)).toBe('/contacts?q=a');
    expect(sameOriginPath('//localhost:3000/contacts', origin)).toBe('/contacts');
    expect(sameOriginPath('campaigns', origin)).toBe('/campaigns');
  });

  it('refuses every target that leads elsewhere', () => {
    for (const target of hostile) expect(sameOriginPath(target, origin), target).toBeNull();
  });

  it('never answers something a browser reads as another origin', () => {
    for (const target of [...hostile, '%2F%2Fevil.example', '/%2F%2Fevil.example', '/%5Cevil.example', '/a/../b']) {
      const path = sameOriginPath(target, origin);
      if (path === null) continue;
      expect(path, target).toMatch(/^\/(?![/\\])/);
      expect(new URL(path, origin).origin, target).toBe(origin);
      expect(new URL(path, 'https://other.example').origin, target).toBe('https://other.example');
    }
    expect(sameOriginPath('%2F%2Fevil.example', origin)).toBe('/%2F%2Fevil.example');
  });

  it('refuses what is not a target at all', () => {
    for (const target of ['', null, undefined, 42, {}, `/${'a'.repeat(2000)}`]) expect(sameOriginPath(target, origin)).toBeNull();
    expect(sameOriginPath('/x', 'not an origin')).toBeNull();
  });
});

describe('localPath', () => {
  it('keeps paths and refuses URLs and anything that leaves the site', () => {
    expect(localPath('/conversations/1?x=2')).toBe('/conversations/1?x=2');
    for (const target of [...hostile, 'https://parley.invalid/x', '//parley.invalid/x', 'campaigns', '', null]) {
      expect(localPath(target), String(target)).toBeNull();
    }
  });
});
