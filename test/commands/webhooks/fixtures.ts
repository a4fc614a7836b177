import { expect } from 'vitest';
import { http, type useSandbox } from '../../helpers.js';

/** The workspace every webhooks test works in (`-w 102`). */
export const W = ['-w', '102'];

/** A new endpoint in workspace 102, created through the CLI; its JSON, with the secret. */
export async function create(
  t: ReturnType<typeof useSandbox>,
  url = 'https://hooks.example.com/x',
  events = 'load_completed',
) {
  const r = await t.edp('webhooks', 'create', '--url', url, '--events', events, '--json');
  expect(r.code).toBe(0);
  return r.json();
}

/** How many endpoints workspace 102 has, straight from the sandbox. */
export async function count(t: ReturnType<typeof useSandbox>, token: string) {
  return (await http(t.sb, 'GET', '/api/v3/webhook_endpoints/', { token })).body.count as number;
}

/** One endpoint straight from the sandbox. */
export function endpoint(t: ReturnType<typeof useSandbox>, token: string, id: number | string) {
  return http(t.sb, 'GET', `/api/v3/webhook_endpoints/${id}/`, { token });
}
