import { test, type TestContext } from 'vitest';
import { AGENCY_SKIP, WRITE_SKIP, agencyWrites, canWrite, targetIsLocal } from './target.js';

/** A check that writes to the scratch workspace: reported as skipped without one. */
export function writeCheck(name: string, fn: (ctx: TestContext) => Promise<void>): void {
  test(name, async (ctx) => {
    if (!canWrite) return ctx.skip(WRITE_SKIP);
    await fn(ctx);
  });
}

/** A check that writes outside the scratch workspace, for good: reported as skipped unless allowed. */
export function agencyWriteCheck(name: string, fn: (ctx: TestContext) => Promise<void>): void {
  test(name, async (ctx) => {
    if (!agencyWrites) return ctx.skip(AGENCY_SKIP);
    await fn(ctx);
  });
}

/** A check that needs a local receiver reachable from the target (and writes). */
export function localWriteCheck(name: string, fn: (ctx: TestContext) => Promise<void>): void {
  test(name, async (ctx) => {
    if (!canWrite) return ctx.skip(WRITE_SKIP);
    if (!targetIsLocal)
      return ctx.skip('needs a local receiver reachable from the target: runs only against a local target');
    await fn(ctx);
  });
}

/** A rule no client can observe without a control the contract does not offer. */
export function unobservable(name: string, why: string): void {
  test(name, (ctx) => ctx.skip(why));
}
