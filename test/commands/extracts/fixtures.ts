import { expect } from 'vitest';
import type { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

/** A new Facebook Ads extract in workspace 101, created through the CLI (`extra` flags appended). */
export async function created(t: ReturnType<typeof useSandbox>, ...extra: string[]) {
  const d = demo(t.sb);
  const r = await t.edp(
    'extracts',
    'create',
    '--template',
    String(d.template('facebook_ads', false).id),
    '--account',
    String(d.accounts('facebook_ads')[0]!.id),
    '--json',
    ...extra,
  );
  expect(r.code).toBe(0);
  return r.json();
}
