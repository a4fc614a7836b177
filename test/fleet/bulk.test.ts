import { describe, expect, it } from 'vitest';
import type { Service } from '../../src/api/service.js';
import { idsNotFound, readBulkItems } from '../../src/fleet/bulk.js';

/** A service whose lists answer `items` (per operation id), and which sends nothing else. */
function listing(items: Record<string, unknown[]>): Service {
  return {
    async *list(id: string) {
      yield* items[id] ?? [];
    },
    noteFailure() {},
  } as unknown as Service;
}

describe('bulk selection with --failed', () => {
  it('an extract whose answer has no status is neither failed nor not: it is left out and counted', async () => {
    const api = listing({
      'extracts.list': [
        { id: 1, title: 'failed', status: 'failed' },
        { id: 2, title: 'completed', status: 'completed' },
        { id: 3, title: 'untold' },
      ],
    });
    const [w] = await readBulkItems(api, 'extracts.run', ['101'], { failed: true }, { concurrency: 1 });
    expect(w!.items.map((i) => i.id)).toEqual(['1']);
    expect(w!.untold).toBe(1);
  });

  it('a load never run has not failed; one whose answer has no last run does not say', async () => {
    const api = listing({
      'loads.list': [
        { id: 8001, last_run: { id: 1, status: 'failed' } },
        { id: 8002, last_run: null },
        { id: 8003 },
        { id: 8004, last_run: { id: 2 } },
      ],
    });
    const [w] = await readBulkItems(api, 'loads.run', ['101'], { failed: true }, { concurrency: 1 });
    expect(w!.items.map((i) => [i.id, i.failed])).toEqual([['8001', true]]);
    expect(w!.untold).toBe(2);
  });

  it('a recipe has failed when its state is failed, whatever its sources say', async () => {
    const api = listing({
      'recipes.list': [
        { recipe_id: '9007199254740993', state: 'failed' },
        { recipe_id: '9007199254740995', state: 'ready_to_work', sources: [{ status: 'failed' }] },
      ],
    });
    const read = await readBulkItems(api, 'recipes.build', ['101'], { failed: true }, { concurrency: 1 });
    expect(read[0]!.items.map((i) => i.id)).toEqual(['9007199254740993']);
    expect(read[0]!.untold).toBe(0);
  });

  it('an id left out by --failed was found; one in no workspace was not', async () => {
    const api = listing({ 'extracts.list': [{ id: 1, status: 'completed' }] });
    const selection = { ids: ['1', '2'], failed: true };
    const read = await readBulkItems(api, 'extracts.run', ['101'], selection, { concurrency: 1 });
    expect(read[0]!.items).toEqual([]);
    expect(idsNotFound(selection, read)).toEqual(['2']);
  });
});
