import { describe, expect, it } from 'vitest';
import { accountFromRedirect, automaticAccount, forgetAccount, peekRedirect, saveRedirect, selectAccount, selectedAccountId, takeRedirect } from './selection';

class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  get length(): number {
    return this.map.size;
  }
  clear(): void {
    this.map.clear();
  }
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
  setItem(key: string, value: string): void {
    this.map.set(key, value);
  }
}

describe('account selection', () => {
  it('remembers the chosen account until it is forgotten', () => {
    const storage = new MemoryStorage();
    expect(selectedAccountId(storage)).toBeNull();
    selectAccount('a1', storage);
    expect(selectedAccountId(storage)).toBe('a1');
    forgetAccount(storage);
    expect(selectedAccountId(storage)).toBeNull();
  });

  it('hands a saved redirect back once', () => {
    const storage = new MemoryStorage();
    saveRedirect('/contacts?q=x', storage);
    expect(takeRedirect(storage)).toBe('/contacts?q=x');
    expect(takeRedirect(storage)).toBeNull();
  });

  it('keeps and hands back only paths of this site', () => {
    const storage = new MemoryStorage();
    for (const target of ['//evil.example/x', '/\\evil.example', '/.//evil.example/x', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example']) {
      saveRedirect(target, storage);
      expect(peekRedirect(storage), target).toBeNull();
      expect(takeRedirect(storage), target).toBeNull();
      // Whatever else wrote the key (an older version, another script), nothing off the site comes back.
      storage.setItem('parley.redirectTo', target);
      expect(peekRedirect(storage), target).toBeNull();
      expect(takeRedirect(storage), target).toBeNull();
    }
    saveRedirect('/campaigns?accountId=a1', storage);
    expect(takeRedirect(storage)).toBe('/campaigns?accountId=a1');
  });

  it('selects the account a redirect names only when the user belongs to it', () => {
    expect(accountFromRedirect('/campaigns?accountId=a2&x=1', ['a1', 'a2'])).toBe('a2');
    expect(accountFromRedirect('/campaigns?accountId=a3', ['a1', 'a2'])).toBeNull();
    expect(accountFromRedirect('/campaigns', ['a1'])).toBeNull();
    expect(accountFromRedirect(null, ['a1'])).toBeNull();
  });

  it('chooses the only account without asking, and leaves a choice among several to the user', () => {
    // Signed in afresh (nothing stored): one account is chosen, several wait for the user.
    expect(automaticAccount(null, ['a1'])).toBe('a1');
    expect(automaticAccount(null, ['a1', 'a2'])).toBeNull();
    expect(automaticAccount(null, [])).toBeNull();
    // A stored choice that still holds stands (nothing to do), whatever the number of accounts.
    expect(automaticAccount('a1', ['a1'])).toBeNull();
    expect(automaticAccount('a2', ['a1', 'a2'])).toBeNull();
    // A stored account the user has left: the one remaining is chosen; among several, the user chooses.
    expect(automaticAccount('gone', ['a1'])).toBe('a1');
    expect(automaticAccount('gone', ['a1', 'a2'])).toBeNull();
  });
});
