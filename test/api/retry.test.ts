import { describe, expect, it } from 'vitest';
import { decideRetry, defaultRetryPolicy, parseRetryAfter, RetryBudget, backoffDelay } from '../../src/api/retry.js';

const policy = defaultRetryPolicy;
const half = () => 0.5;

describe('retry policy', () => {
  it('repeats a read after a 503, waiting Retry-After', () => {
    expect(decideRetry(policy, { kind: 'status', status: 503, retryAfter: '2' }, 1, true, half)).toEqual({
      retry: true,
      delayMs: 2000,
    });
  });

  it("waits the contract's 30 s when a 503 carries no Retry-After", () => {
    expect(decideRetry(policy, { kind: 'status', status: 503 }, 1, true, half)).toEqual({
      retry: true,
      delayMs: 30_000,
    });
  });

  it('repeats any method after a 429 (nothing was done), waiting Retry-After or backing off', () => {
    expect(decideRetry(policy, { kind: 'status', status: 429, retryAfter: '3' }, 1, false, half)).toEqual({
      retry: true,
      delayMs: 3000,
    });
    expect(decideRetry(policy, { kind: 'status', status: 429 }, 2, false, half)).toEqual({ retry: true, delayMs: 250 });
    expect(decideRetry(policy, { kind: 'status', status: 429 }, 4, true, half)).toEqual({ retry: false });
  });

  it('caps a long Retry-After', () => {
    expect(decideRetry(policy, { kind: 'status', status: 503, retryAfter: '3600' }, 1, true, half)).toEqual({
      retry: true,
      delayMs: 60_000,
    });
  });

  it('never repeats a write after a 503: its outcome is unknown', () => {
    expect(decideRetry(policy, { kind: 'status', status: 503, retryAfter: '0' }, 1, false, half)).toEqual({
      retry: false,
    });
  });

  it('repeats a write after a 503 whose code guarantees nothing was saved', () => {
    for (const code of ['account_check_unavailable', 'data_table_reservation_failed']) {
      expect(decideRetry(policy, { kind: 'status', status: 503, code, retryAfter: '1' }, 1, false, half)).toEqual({
        retry: true,
        delayMs: 1000,
      });
    }
  });

  it('repeats reads on 502/504 with backoff, not other statuses', () => {
    expect(decideRetry(policy, { kind: 'status', status: 502 }, 1, true, half).retry).toBe(true);
    expect(decideRetry(policy, { kind: 'status', status: 504 }, 2, true, half).retry).toBe(true);
    expect(decideRetry(policy, { kind: 'status', status: 500 }, 1, true, half).retry).toBe(false);
    expect(decideRetry(policy, { kind: 'status', status: 404 }, 1, true, half).retry).toBe(false);
    expect(decideRetry(policy, { kind: 'status', status: 502 }, 1, false, half).retry).toBe(false);
  });

  it('repeats a write only when the connection was refused (nothing was sent)', () => {
    expect(decideRetry(policy, { kind: 'network', sent: false }, 1, false, half).retry).toBe(true);
    expect(decideRetry(policy, { kind: 'network', sent: true }, 1, false, half).retry).toBe(false);
    expect(decideRetry(policy, { kind: 'network', sent: true }, 1, true, half).retry).toBe(true);
  });

  it('stops after the last attempt', () => {
    expect(
      decideRetry(policy, { kind: 'status', status: 503, retryAfter: '0' }, policy.maxAttempts, true, half),
    ).toEqual({ retry: false });
  });

  it('backs off exponentially with full jitter under a cap', () => {
    const one = () => 0.999999;
    expect(backoffDelay(policy, 1, one)).toBe(249);
    expect(backoffDelay(policy, 3, one)).toBe(999);
    expect(backoffDelay(policy, 10, one)).toBe(3999);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('shares one bounded budget', () => {
    const budget = new RetryBudget(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
  });
});
