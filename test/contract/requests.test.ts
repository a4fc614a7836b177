import { describe, expect, it } from 'vitest';
import { roleSchema } from '../../src/commands/roles/shared/role-schema.js';
import { templateSettingsSchema } from '../../src/commands/shared/template-settings-schema.js';
import * as requests from '../../src/contract/requests.js';
import { LosslessNumber } from '../../src/util/json.js';

/** The request schemas of src/contract/requests.ts: what the sandbox validates and the CLI's types come from. */
describe('request schemas', () => {
  it('the files a person writes for a request take the keys of its body, no more and no fewer', () => {
    // The CLI reads them with messages of its own, before sending; the keys are the contract's.
    expect(Object.keys(templateSettingsSchema.shape).sort()).toEqual(
      Object.keys(requests.templateSettings.shape).sort(),
    );
    expect(Object.keys(roleSchema.shape).sort()).toEqual(Object.keys(requests.roleWrite.shape).sort());
  });

  it('ids past 2^53 are read without loss; a string or a fraction is not an id', () => {
    const big = new LosslessNumber('9007199254740993123');
    expect(requests.recipeCreate.safeParse({ template_id: big, title: 'Spend' }).success).toBe(true);
    expect(requests.recipeCreate.safeParse({ template_id: '12', title: 'Spend' }).success).toBe(false);
    expect(requests.recipeCreate.safeParse({ template_id: 1.5, title: 'Spend' }).success).toBe(false);
  });

  it('a v3 configuration account is an object; v3.1 takes the id alone', () => {
    const config = (account: unknown) => ({
      data_sources: ['facebook'],
      connections: [{ connection_id: 5, connection_data_source: 'facebook', accounts: [account] }],
    });
    expect(requests.recipeConfigurationV3.safeParse(config({ id: 7, account_id: 'act_7' })).success).toBe(true);
    const bare = requests.recipeConfigurationV3.safeParse(config(7));
    expect(bare.error?.issues[0]?.message).toBe('Expected a dictionary of items but got a bare value.');
    expect(requests.recipeConfigurationV31.safeParse(config({ id: 7 })).success).toBe(true);
  });

  it('a webhook endpoint is changed in its event types only, at an http(s) address', () => {
    expect(requests.webhookEndpointPatch.safeParse({ event_types: ['account_created'] }).success).toBe(true);
    expect(
      requests.webhookEndpointPatch.safeParse({ event_types: ['account_created'], url: 'https://x' }).success,
    ).toBe(false);
    expect(requests.webhookEndpointCreate.safeParse({ url: 'ftp://x', event_types: ['a'] }).success).toBe(false);
  });
});
