import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { fleetJsonSchema } from '../../src/fleet/schema-json.js';
import { FLEET_SCHEMA_URL } from '../../src/fleet/schema-id.js';

const checkedIn = () => JSON.parse(readFileSync('docs/fleet.schema.json', 'utf8')) as Record<string, unknown>;

describe('docs/fleet.schema.json', () => {
  it('is what the fleet file schema gives (node scripts/fleet-schema.mjs writes it)', () => {
    expect(checkedIn(), 'docs/fleet.schema.json is stale: run node scripts/fleet-schema.mjs').toEqual(
      fleetJsonSchema(),
    );
    expect(checkedIn().$id).toBe(FLEET_SCHEMA_URL);
  });

  it('takes a fleet file with clients, selectors and values, and refuses an unknown key', () => {
    const validate = new Ajv2020({ strict: false, allowUnionTypes: true }).compile(checkedIn());
    const fleet = {
      clients: [
        { title: 'Acme Retail', id: 101, groups: ['retail'], vars: { bucket: 'acme-lake' } },
        { title: 'Umbrella Foods', groups: ['retail'] },
      ],
      webhooks: [
        {
          url: 'https://hooks.example.com/${var.bucket}?key=${env.HOOK_KEY}',
          events: ['recipe_activated'],
          workspaces: ['group:retail', 'title:Initech Apps', 102, 'all'],
        },
      ],
    };
    expect(validate(fleet), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...fleet, clients: [{ title: 'A', colour: 'red' }] })).toBe(false);
    expect(validate({ ...fleet, webhooks: [{ ...fleet.webhooks[0], workspaces: ['name:A'] }] })).toBe(false);
  });
});
