import { describe, expect, it } from 'vitest';
import { fleetDocument, parseFleetFile } from '../../../src/fleet/file.js';

const recipe = (extra: Record<string, unknown> = {}) => ({
  template: 'Paid Media Performance',
  sources: [{ data_source: 'google_ads', accounts: ['all-active'] }],
  ...extra,
});

describe('the fleet file', () => {
  it("parses the README's example and writes it back in the same form", async () => {
    const f = await parseFleetFile(
      {
        workspaces: [101, 102],
        recipes: [
          {
            ...recipe(),
            sync_from_date: '2024-01-01',
            sources: [{ data_source: 'google_ads', accounts: ['remote:123-456-7801', 'all-active'] }],
          },
        ],
        webhooks: [
          { url: 'https://hooks.example.com/edp', events: ['recipe_activated', 'load_completed'], workspaces: [101] },
        ],
        roles: [{ title: 'Media Buyer', description: 'Runs paid media extractions', permissions: ['EXTRACT:RUN'] }],
      },
      '--file f',
    );
    expect(f.workspaces).toEqual(['101', '102']);
    expect(f.recipes[0]).toMatchObject({ template: 'Paid Media Performance', syncFrom: '2024-01-01' });
    expect(f.roles[0]!.permissions).toEqual([{ layer: 'EXTRACT', permission: 'RUN' }]);
    expect(f.manages).toEqual({ webhooks: true, roles: true });
    expect(fleetDocument(f)).toEqual({
      workspaces: [101, 102],
      recipes: [
        {
          template: 'Paid Media Performance',
          sync_from_date: '2024-01-01',
          sources: [{ data_source: 'google_ads', accounts: ['remote:123-456-7801', 'all-active'] }],
        },
      ],
      webhooks: [
        { url: 'https://hooks.example.com/edp', events: ['recipe_activated', 'load_completed'], workspaces: [101] },
      ],
      roles: [{ title: 'Media Buyer', description: 'Runs paid media extractions', permissions: ['EXTRACT:RUN'] }],
    });
  });

  it('a section left out is not managed', async () => {
    expect((await parseFleetFile({ workspaces: 'all', recipes: [recipe()] }, 'f')).manages).toEqual({
      webhooks: false,
      roles: false,
    });
  });

  it('names each problem by its field path', async () => {
    const bad = parseFleetFile(
      { workspaces: [], recipes: [recipe({ templte: 'x' })], roles: [{ title: '', permissions: ['EXTRACT'] }] },
      '--file f',
    );
    await expect(bad).rejects.toThrow(/workspaces: needs at least one workspace/);
    await expect(bad).rejects.toThrow(/recipes\[0\]/);
    await expect(bad).rejects.toThrow(/roles\[0\]\.title/);
  });

  it('refuses two entries for one template or url in the same workspace, a role named twice, a bad permission', async () => {
    await expect(
      parseFleetFile({ workspaces: [101, 102], recipes: [recipe(), recipe({ workspaces: [102] })] }, 'f'),
    ).rejects.toThrow(/recipes\[1\]: Paid Media Performance is also in recipes\[0\]/);
    await expect(
      parseFleetFile(
        { workspaces: [101, 102], recipes: [recipe({ workspaces: [101] }), recipe({ workspaces: [102] })] },
        'f',
      ),
    ).resolves.toBeDefined();
    await expect(
      parseFleetFile(
        {
          workspaces: 'all',
          webhooks: [
            { url: 'https://a.example', events: ['x'] },
            { url: 'https://a.example', events: ['y'], workspaces: [3] },
          ],
        },
        'f',
      ),
    ).rejects.toThrow(/webhooks\[1\]/);
    await expect(
      parseFleetFile(
        {
          workspaces: [1],
          roles: [
            { title: 'A', permissions: [] },
            { title: 'A', permissions: [] },
          ],
        },
        'f',
      ),
    ).rejects.toThrow(/roles\[1\]: same as roles\[0\]/);
    await expect(
      parseFleetFile({ workspaces: [1], roles: [{ title: 'A', permissions: ['EXTRACT'] }] }, 'f'),
    ).rejects.toThrow(/roles\[0\]\.permissions\[0\]/);
  });

  it('a connection id only in an entry for one workspace', async () => {
    const withConnection = recipe({
      sources: [{ data_source: 'google_ads', connection: 1001, accounts: ['all-active'] }],
    });
    await expect(parseFleetFile({ workspaces: [101, 102], recipes: [withConnection] }, 'f')).rejects.toThrow(
      /recipes\[0\]\.sources\[0\]\.connection/,
    );
    expect(
      (await parseFleetFile({ workspaces: [101], recipes: [withConnection] }, 'f')).recipes[0]!.sources[0]!.connection,
    ).toBe('1001');
  });
});
