import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tokenFor, useSandbox } from '../../helpers.js';
import { count, create, W } from './fixtures.js';

const t = useSandbox({}, W);
let token: string;
beforeAll(async () => {
  token = await tokenFor(t.sb, 102);
});

describe('edp webhooks create', () => {
  it('creates an unverified endpoint and prints the exact object with its secret', async () => {
    const ep = await create(t, 'https://hooks.example.com/a', 'workspace_created,load_completed,workspace_created');
    expect(ep).toMatchObject({
      url: 'https://hooks.example.com/a',
      event_types: ['workspace_created', 'load_completed'],
      status: 'unverified',
    });
    expect(ep.secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows the secret to a person once, with the next steps', async () => {
    const r = await t.edp('webhooks', 'create', '--url', 'https://hooks.example.com/b', '--events', 'load_completed');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/secret\s+[0-9a-f]{64}/);
    expect(r.stderr).toContain('Created webhook endpoint');
    expect(r.stderr).toContain('edp webhooks verify');
  });

  it('refuses unknown event names before writing, with a suggestion (exit 2)', async () => {
    const before = await count(t, token);
    const r = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/c',
      '--events',
      'load_complete,nonsense_thing_here',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--events');
    expect(r.stderr).toContain('"load_complete" (did you mean load_completed?)');
    expect(r.stderr).toContain('"nonsense_thing_here"');
    expect(await count(t, token)).toBe(before);
  });

  it('refuses a bad --url, malformed --events and a missing workspace (exit 2, nothing sent)', async () => {
    const before = await count(t, token);
    const url = await t.edp('webhooks', 'create', '--url', 'hooks.example.com', '--events', 'load_completed');
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--url');
    const events = await t.edp('webhooks', 'create', '--url', 'https://x.example.com', '--events', ' , ');
    expect(events.code).toBe(2);
    expect(events.stderr).toContain('--events');
    const ws = await cli(t.sb, ['webhooks', 'create', '--url', 'https://x.example.com', '--events', 'load_completed']);
    expect(ws.code).toBe(2);
    expect(ws.stderr).toContain('--workspace');
    expect(await count(t, token)).toBe(before);
  });

  it('warns about silent event types but subscribes', async () => {
    const r = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/s',
      '--events',
      'connection_created',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('connection_created is a valid subscription that produced no events');
  });

  it('maps an invalid token to exit 3', async () => {
    const r = await cli(t.sb, ['webhooks', 'list', ...W], {
      env: { EDP_TOKEN: 'nope', EDP_WORKSPACE: '102', EDP_USERNAME: undefined, EDP_PASSWORD: undefined },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('401');
  });
});

describe('edp webhooks create --verbose', () => {
  it('keeps the secret out of the --verbose request log', async () => {
    const r = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/v',
      '--events',
      'load_completed',
      '--json',
      '--verbose',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain(r.json().secret);
  });
});
