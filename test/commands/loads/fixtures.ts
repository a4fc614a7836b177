import { expect } from 'vitest';
import type { useSandbox } from '../../helpers.js';
import { demo } from '../../fixtures/extraction.js';

/** A new load of the demo table to the demo S3 destination, created through the CLI; its id. */
export async function newLoad(t: ReturnType<typeof useSandbox>, ...extra: string[]): Promise<number> {
  const d = demo(t.sb);
  const r = await t.edp(
    'loads',
    'create',
    '--table',
    String(d.table.id),
    '--destination-connection',
    String(d.s3.id),
    '--json',
    ...extra,
  );
  expect(r.code).toBe(0);
  return r.json().id;
}
