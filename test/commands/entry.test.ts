import { describe, expect, it } from 'vitest';
import * as cli from '../../src/cli.js';

// The command tests run `main` from the sources, or from the built bundle under
// vitest.bundle.config.ts (which sets EDP_TEST_BUNDLE): this says the alias took.
describe('the entry the command tests run', () => {
  it('is the bundle under vitest.bundle.config.ts, the sources otherwise', () => {
    expect('BUILT' in cli).toBe(process.env.EDP_TEST_BUNDLE === '1');
  });
});
