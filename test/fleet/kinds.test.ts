import { describe, expect, it } from 'vitest';
import { parseFleetFile } from '../../src/fleet/file.js';
import { matchAccounts, type SourceAccount } from '../../src/fleet/plan/accounts.js';
import { findTemplate } from '../../src/fleet/plan/extracts.js';
import { selectionOf } from '../../src/fleet/plan/tables.js';
import { kindChangeText } from '../../src/commands/shared/plan-text-kinds.js';
import type { DocumentError } from '../../src/util/document.js';

const failure = (doc: unknown) =>
  parseFleetFile(doc, '--file').then(
    () => undefined,
    (err: unknown) => err as DocumentError,
  );

describe('the fleet file: extracts, destinations, accounts, tables', () => {
  it('names each problem of the sections by its path: a parameter the destination does not take or the service sets, two entries of one key', async () => {
    const extract = { template: 'Campaigns', data_source: 'google_ads', accounts: ['all-active'] };
    const err = await failure({
      workspaces: [101, 102],
      extracts: [extract, { ...extract, workspaces: [102] }],
      destinations: [
        {
          destination: 's3',
          title: 'Lake',
          params: { bukket: 'x', service_assume_role_arn: 'arn', bucket: 'y' },
        },
      ],
      accounts: [{ data_source: 'google_ads', enabled: ['all-active', 'remote:1'] }],
      tables: [{ table: 'T', selected_fields: ['date'] }],
    });
    expect(err!.details.problems.map((p) => [p.path, p.message])).toEqual([
      ['extracts[1]', 'Campaigns (google_ads) is also in extracts[0] for the same workspace(s)'],
      [
        'destinations[0].params.bukket',
        expect.stringMatching(/^not a s3 parameter \(did you mean bucket\?\); known: /),
      ],
      ['destinations[0].params.service_assume_role_arn', 'is set by the service (read-only)'],
      ['accounts[0].enabled', 'all-active already names every active account; give it alone'],
    ]);
  });

  it('reads each section into typed entries; a section left out is not managed', async () => {
    const f = await parseFleetFile(
      {
        workspaces: [101],
        extracts: [{ template: 4001, data_source: 'google_ads', accounts: ['remote:1', 2], paused: true }],
        tables: [{ table: 'T', selected_fields: ['date', 'date', 'clicks'] }],
      },
      '--file',
    );
    expect(f.kinds.extracts).toEqual([
      expect.objectContaining({
        template: '4001',
        dataSource: 'google_ads',
        accounts: ['remote:1', '2'],
        paused: true,
      }),
    ]);
    expect(f.kinds.tables[0]!.selectedFields).toEqual(['date', 'clicks']);
    expect(f.kinds.manages).toEqual({ extracts: true, destinations: false, accounts: false, tables: true });
  });
});

const account = (id: number, title: string, remote: string, active = true): SourceAccount => ({
  account: { id, title, is_active: active, enabled_for_embedded_extraction: false } as SourceAccount['account'],
  id: String(id),
  connectionId: '1001',
  remote,
});

describe('matching accounts of a data source', () => {
  const all = [account(1, 'Brand', '111'), account(2, 'Search', '222'), account(3, 'Old', '333', false)];
  it('all-active, remote:ID, an id, a title in any letter case; a bare remote id is told to write remote:', () => {
    expect(matchAccounts(['all-active'], all).matched.map((a) => a.id)).toEqual(['1', '2']);
    expect(matchAccounts(['remote:333', '2', 'brand'], all).matched.map((a) => a.id)).toEqual(['3', '2', '1']);
    expect(matchAccounts(['222', 'Nope'], all).problems).toEqual([
      { selector: '222', reason: 'no such account; the remote account id is written remote:222' },
      { selector: 'Nope', reason: 'no such account' },
    ]);
  });

  it('a template by id, by title, and several of one title are ambiguous', () => {
    const templates = [
      { id: 1, title: 'Campaigns' },
      { id: 2, title: 'Ads' },
      { id: 3, title: 'Ads' },
    ];
    expect(findTemplate(templates, '1').template?.id).toBe(1);
    expect(findTemplate(templates, 'campaigns').template?.id).toBe(1);
    expect(findTemplate(templates, 'Ads').several?.map((t) => t.id)).toEqual([2, 3]);
    expect(findTemplate(templates, 'None')).toEqual({ template: undefined });
  });

  it("a table's selection leaves its system fields out", () => {
    const t = {
      id: 5001,
      selected_fields: ['date', 'clicks'],
      fields: [
        { name: 'date', user_type: 'dimension', format: 'string', is_dynamic: false },
        { name: 'clicks', user_type: 'metric', format: 'float', is_dynamic: false },
        { name: 'spend', user_type: 'metric', format: 'float', is_dynamic: false },
        { name: 'account_id', user_type: 'dimension', format: 'string', is_dynamic: false, is_system: true },
      ],
    };
    expect(selectionOf(t)).toEqual({ fields: t.fields.slice(0, 3), selected: ['date', 'clicks'] });
  });
});

describe("a plan's line for each change of the kinds", () => {
  it('says what changes, secrets by name only', () => {
    expect(
      kindChangeText(
        {
          resource: 'extract',
          name: 'Campaigns',
          action: 'update',
          id: 40001,
          detail: {
            data_source: 'google_ads',
            account: 'remote:1',
            schedule: { was: 'daily', now: 'weekly' },
            paused: true,
          },
        },
        'extract "Campaigns" (40001)',
      ),
    ).toBe('~ extract "Campaigns" (40001): account remote:1: schedule daily → weekly, pause');
    expect(
      kindChangeText(
        {
          resource: 'destination',
          name: 'Lake',
          action: 'update',
          id: 7001,
          detail: {
            destination: 's3',
            params: { region: { was: 'eu-west-1', now: 'us-east-2' } },
            secrets: ['password'],
          },
        },
        'destination "Lake" (7001)',
      ),
    ).toBe('~ destination "Lake" (7001): region eu-west-1 → us-east-2; send secret fields password (--send-secrets)');
    expect(
      kindChangeText(
        {
          resource: 'table',
          name: 'T',
          action: 'update',
          id: 5001,
          detail: { selected_fields: [], add: ['a'], remove: ['b'] },
        },
        'table "T" (5001)',
      ),
    ).toBe('~ table "T" (5001): selected fields + a, - b');
  });
});
