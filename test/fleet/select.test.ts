import { describe, expect, it } from 'vitest';
import { fleetWorld, selectWorkspaces } from '../../src/fleet/select.js';
import type { ClientEntry } from '../../src/fleet/file.js';

const live = [
  { id: 101, title: 'Acme Retail' },
  { id: 102, title: 'Globex Media' },
  { id: 103, title: 'Initech Apps' },
];
const client = (c: Partial<ClientEntry> & { title: string }): ClientEntry => ({ groups: [], vars: {}, ...c });

describe('fleet workspaces and selectors', () => {
  it('matches clients by id (a rename when the title differs) or by title, and adds those to create', () => {
    const { all, problems, missing } = fleetWorld(live, [
      client({ title: 'Globex Media Group', id: '102', groups: ['media'] }),
      client({ title: 'Acme Retail', groups: ['retail'] }),
      client({ title: 'Umbrella Foods', groups: ['retail'] }),
      client({ title: 'Gone', id: '999' }),
    ]);
    expect(problems).toEqual([]);
    expect(missing).toEqual(['999']);
    expect(all.map((w) => [w.key, w.id, w.title, w.was, w.client?.title])).toEqual([
      ['101', '101', 'Acme Retail', undefined, 'Acme Retail'],
      ['102', '102', 'Globex Media Group', 'Globex Media', 'Globex Media Group'],
      ['103', '103', 'Initech Apps', undefined, undefined],
      ['new:Umbrella Foods', null, 'Umbrella Foods', undefined, 'Umbrella Foods'],
    ]);
    const problemsOf: Array<{ path: Array<string | number>; message: string }> = [];
    const pick = (s: string[] | 'all') => selectWorkspaces(s, all, ['workspaces'], problemsOf);
    expect(pick(['group:retail'])).toEqual(['101', 'new:Umbrella Foods']);
    expect(pick(['title:Initech Apps', '102', 'group:media'])).toEqual(['103', '102']);
    expect(pick(['101', 'all'])).toEqual(['101', '102', '103', 'new:Umbrella Foods']);
    expect(pick('all')).toHaveLength(4);
    expect(problemsOf).toEqual([]);
    expect(pick(['title:Initec Apps'])).toEqual([]);
    expect(problemsOf).toEqual([expect.objectContaining({ path: ['workspaces', 0], suggestion: 'Initech Apps' })]);
  });

  it('refuses a client whose title several workspaces share, and two clients of one workspace', () => {
    const twice = fleetWorld([...live, { id: 104, title: 'Acme Retail' }], [client({ title: 'Acme Retail' })]);
    expect(twice.problems[0]!.message).toBe(
      '2 workspaces are titled "Acme Retail" (101, 104); pin the client\'s with id',
    );
    const same = fleetWorld(live, [client({ title: 'A', id: '101' }), client({ title: 'B', id: '101' })]);
    expect(same.problems[0]!.path).toEqual(['clients', 1]);
  });
});
