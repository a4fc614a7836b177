import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir, tokenFor, useSandbox } from '../../helpers.js';
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

describe('edp webhooks create --secrets-file', () => {
  const files = tempDir('edp-webhook-secrets-');
  afterAll(() => files.remove());

  it('writes the secret to the file (0600) and prints the endpoint without it, at a terminal too', async () => {
    const file = join(files.dir, 'secrets.json');
    const r = await cli(
      t.sb,
      [
        'webhooks',
        'create',
        ...W,
        '--url',
        'http://127.0.0.1:4021/h',
        '--events',
        'load_completed',
        '--secrets-file',
        file,
      ],
      { tty: true, env: { NO_COLOR: '1' } },
    );
    expect(r.code, r.stderr).toBe(0);
    const [entry] = JSON.parse(readFileSync(file, 'utf8')).endpoints;
    expect(entry).toMatchObject({ workspace_id: '102', url: 'http://127.0.0.1:4021/h' });
    expect(entry.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(r.stdout + r.stderr).not.toContain(entry.secret);
    expect(r.stdout).toMatch(new RegExp(`id\\s+${entry.endpoint_id}`));
    expect(r.stderr).toContain(`edp webhooks listen --port 4021 --secrets-file ${file}`);
  });

  it('--json prints the endpoint without its secret; another entry of the file is kept', async () => {
    const file = join(files.dir, 'kept.json');
    const other = { workspace_id: '101', endpoint_id: '7', url: 'https://x.example.com', secret: 'abc' };
    writeFileSync(file, JSON.stringify({ format_version: 1, endpoints: [other] }));
    const r = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/json-file',
      '--events',
      'load_completed',
      '--secrets-file',
      file,
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).not.toHaveProperty('secret');
    const endpoints = JSON.parse(readFileSync(file, 'utf8')).endpoints;
    expect(endpoints).toHaveLength(2);
    expect(endpoints[0]).toEqual(other);
    expect(endpoints[1].endpoint_id).toBe(String(r.json().id));
  });

  it('refuses a file that is not a secrets file before anything is sent (exit 2)', async () => {
    const before = await count(t, token);
    const file = join(files.dir, 'not-secrets.json');
    writeFileSync(file, '{"something": "else"}');
    const r = await t.edp(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/bad-file',
      '--events',
      'load_completed',
      '--secrets-file',
      file,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--secrets-file');
    expect(await count(t, token)).toBe(before);
  });
});
