// The command line's entry as built (dist/cli.cjs), in place of src/cli.ts: vitest.bundle.config.ts
// runs the command suite against it, stand-ins and all. Refuses a dist/ older than its sources.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, unusableBuild } from '../e2e/helpers.js';
import type * as Cli from '../../src/cli.js';

const why = unusableBuild(ROOT);
if (why) throw new Error(why);
const built = createRequire(import.meta.url)(join(ROOT, 'dist/cli.cjs')) as typeof Cli;

export const { main, buildProgram, wantsMachineOutput, run } = built;
/** Marks this entry as the bundle's (test/commands/entry.test.ts). */
export const BUILT = true;
