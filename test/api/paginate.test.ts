import { describe, expect, it } from 'vitest';
import { MAX_PAGES, PagingError, paginate, type Page, type PageFetcher } from '../../src/api/paginate.js';
import { collect } from '../../src/util/collect.js';
import { turns } from '../fixtures/turns.js';

/** A fake service of `total` items that records every page request and how many ran at once. */
function fakeService(total: number, opts: { capPageSize?: number; withCount?: boolean; delayTurns?: number } = {}) {
  const calls: Array<{ page: number; size: number }> = [];
  let running = 0;
  let peak = 0;
  const pageOf = async (page: number, requested: number): Promise<Page<number>> => {
    const size = Math.min(requested, opts.capPageSize ?? requested);
    calls.push({ page, size });
    running++;
    peak = Math.max(peak, running);
    await turns(opts.delayTurns ?? 1);
    running--;
    const start = (page - 1) * size;
    const results = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i + 1);
    const last = Math.max(1, Math.ceil(total / size));
    return {
      ...(opts.withCount === false ? {} : { count: total }),
      next: page < last ? `http://x/items?page=${page + 1}&page_size=${size}` : null,
      previous: null,
      results,
    };
  };
  const fetcher: PageFetcher<number> = {
    page: pageOf,
    follow: (url) => {
      const u = new URL(url);
      return pageOf(Number(u.searchParams.get('page')), Number(u.searchParams.get('page_size')));
    },
  };
  return { fetcher, calls, peak: () => peak };
}

describe('paginate', () => {
  it('yields every item of every page in order', async () => {
    const svc = fakeService(1050);
    const items = await collect(paginate(svc.fetcher, { pageSize: 100 }));
    expect(items).toEqual(Array.from({ length: 1050 }, (_, i) => i + 1));
    expect(svc.calls.map((c) => c.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('fetches the remaining pages concurrently, never more than the bound at once', async () => {
    const svc = fakeService(2000, { delayTurns: 5 });
    await collect(paginate(svc.fetcher, { pageSize: 100, concurrency: 4 }));
    expect(svc.peak()).toBe(4);
  });

  it('stops at the limit without fetching pages it does not need', async () => {
    const svc = fakeService(1000);
    const items = await collect(paginate(svc.fetcher, { pageSize: 100, limit: 150 }));
    expect(items).toHaveLength(150);
    expect(svc.calls.map((c) => c.page).sort()).toEqual([1, 2]);
  });

  it('follows a page size the service capped silently', async () => {
    const svc = fakeService(250, { capPageSize: 100 });
    const items = await collect(paginate(svc.fetcher, { pageSize: 1000 }));
    expect(items).toHaveLength(250);
    expect(svc.calls.every((c) => c.size === 100)).toBe(true);
  });

  it('follows `next` one page at a time when there is no count', async () => {
    const svc = fakeService(350, { withCount: false });
    const items = await collect(paginate(svc.fetcher, { pageSize: 100, concurrency: 4 }));
    expect(items).toHaveLength(350);
    expect(svc.peak()).toBe(1);
  });

  it('handles an empty list and a bare array', async () => {
    expect(await collect(paginate(fakeService(0).fetcher, { pageSize: 100 }))).toEqual([]);
    const bare: PageFetcher<string> = { page: async () => ['a', 'b'], follow: async () => [] };
    expect(await collect(paginate(bare, { pageSize: 100 }))).toEqual(['a', 'b']);
  });

  it('surfaces a failing page', async () => {
    const svc = fakeService(500);
    const failing: PageFetcher<number> = {
      page: (p, s) => (p === 3 ? Promise.reject(new Error('page 3 broke')) : svc.fetcher.page(p, s)),
      follow: svc.fetcher.follow,
    };
    await expect(collect(paginate(failing, { pageSize: 100 }))).rejects.toThrow('page 3 broke');
  });

  it('refuses a count that would need more than MAX_PAGES pages, after one request', async () => {
    let calls = 0;
    const huge: PageFetcher<number> = {
      page: async () => {
        calls++;
        return { count: 1e12, next: 'http://x/items?page=2', previous: null, results: [1, 2, 3] };
      },
      follow: async () => ({ results: [] }),
    };
    await expect(collect(paginate(huge, { pageSize: 100 }))).rejects.toThrow(PagingError);
    await expect(collect(paginate(huge, { pageSize: 100 }))).rejects.toThrow(`at most ${MAX_PAGES} pages`);
    expect(calls).toBe(2);
    // With --limit, only what is wanted counts.
    expect(await collect(paginate(huge, { pageSize: 100, limit: 2 }))).toEqual([1, 2]);
  });

  it('stops following links that never end at MAX_PAGES pages', async () => {
    let follows = 0;
    const endless: PageFetcher<number> = {
      page: async () => ({ next: 'http://x/items?page=2', previous: null, results: [1] }),
      follow: async (url) => {
        follows++;
        const n = Number(new URL(url).searchParams.get('page'));
        return { next: `http://x/items?page=${n + 1}`, previous: null, results: [n] };
      },
    };
    await expect(collect(paginate(endless, { pageSize: 1 }))).rejects.toThrow(`past ${MAX_PAGES} pages`);
    expect(follows + 1).toBe(MAX_PAGES);
  });

  it('ends at an empty page before the counted end (items went away) without asking for more', async () => {
    const svc = fakeService(1000, { capPageSize: 100 });
    const shrinking: PageFetcher<number> = {
      page: async (page, size) => {
        const p = (await svc.fetcher.page(page, size)) as Page<number>;
        return page >= 4 ? { ...p, results: [] } : p;
      },
      follow: svc.fetcher.follow,
    };
    const items = await collect(paginate(shrinking, { pageSize: 100, concurrency: 2 }));
    expect(items).toHaveLength(300);
    // Pages already in flight may have been asked; none after the empty one was awaited.
    expect(Math.max(...svc.calls.map((c) => c.page))).toBeLessThanOrEqual(6);
  });
});
