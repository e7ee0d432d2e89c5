import { describe, expect, it } from 'vitest';
import { dailyCountsQuerySchema, dailyCountsWindow, messagesReportQuerySchema, utcDayStart } from './reports.js';

const now = new Date('2025-03-15T23:30:00Z');

describe('dailyCountsWindow', () => {
  it('is the last 90 UTC days up to today without a query', () => {
    expect(dailyCountsWindow({}, now)).toEqual({ from: '2024-12-16', to: '2025-03-15' });
  });

  it('runs 90 days from `from` (never past today), and 90 days up to `to`', () => {
    expect(dailyCountsWindow({ from: '2024-11-01' }, now)).toEqual({ from: '2024-11-01', to: '2025-01-29' });
    expect(dailyCountsWindow({ from: '2025-03-01' }, now)).toEqual({ from: '2025-03-01', to: '2025-03-15' });
    expect(dailyCountsWindow({ from: '2025-04-01' }, now)).toEqual({ from: '2025-04-01', to: '2025-04-01' });
    expect(dailyCountsWindow({ to: '2025-01-31' }, now)).toEqual({ from: '2024-11-03', to: '2025-01-31' });
    expect(dailyCountsWindow({ from: '2025-01-01', to: '2025-01-01' }, now)).toEqual({ from: '2025-01-01', to: '2025-01-01' });
  });
});

describe('dailyCountsQuerySchema', () => {
  const messages = (query: object) => {
    const result = dailyCountsQuerySchema.safeParse(query);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('takes calendar days, in order, at most 366 of them', () => {
    expect(messages({ from: '2024-01-01', to: '2024-12-31' })).toEqual([]);
    expect(messages({ from: '2024-02-30' })).toEqual(['from: Use a date as YYYY-MM-DD.']);
    expect(messages({ to: '2024-1-01' })).toEqual(['to: Use a date as YYYY-MM-DD.']);
    expect(messages({ from: '2024-03-02', to: '2024-03-01' })).toEqual(['from: The start date must not be after the end date.']);
    expect(messages({ from: '2024-01-01', to: '2025-01-01' })).toEqual(['to: A summary covers at most 366 days.']);
  });

  it('reads days as UTC midnights', () => {
    expect(utcDayStart('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(utcDayStart('2023-02-29')).toBeNull();
  });
});

describe('messagesReportQuerySchema', () => {
  it('trims and lowercases the address, and refuses what is not one', () => {
    expect(messagesReportQuerySchema.parse({ email: ' Ann@Example.COM ' })).toEqual({ email: 'ann@example.com' });
    expect(messagesReportQuerySchema.safeParse({ email: 'ann' }).error?.issues[0]?.message).toBe('Invalid email address');
    expect(messagesReportQuerySchema.safeParse({}).error?.issues[0]?.message).toBe('Required');
  });
});
