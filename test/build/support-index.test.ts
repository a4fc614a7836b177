import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as recipeCommandFixtures from '../commands/recipes/fixtures.js';
import * as extraction from '../fixtures/extraction.js';
import * as files from '../fixtures/files.js';
import * as fleet from '../fixtures/fleet.js';
import * as heldWrites from '../fixtures/held-writes.js';
import * as keyedFaults from '../fixtures/keyed-faults.js';
import * as openapiCheck from '../fixtures/openapi-check.js';
import * as proxy from '../fixtures/proxy.js';
import * as recipes from '../fixtures/recipes.js';
import * as turns from '../fixtures/turns.js';
import * as webhooks from '../fixtures/webhooks.js';
import * as helpers from '../helpers.js';
import * as parts from '../parts.js';
import * as index from '../support/index.js';

/**
 * test/support/index.ts offers every helper in one import: each value a helper module exports is
 * there, under its own name or the one the index gives it, unless it is left out on purpose.
 */
const MODULES: Array<[string, Record<string, unknown>, { renamed?: Record<string, string>; left?: string[] }]> = [
  ['test/helpers.ts', helpers, {}],
  ['test/parts.ts', parts, {}],
  ['test/fixtures/files.ts', files, {}],
  ['test/fixtures/turns.ts', turns, {}],
  ['test/fixtures/recipes.ts', recipes, { renamed: { demo: 'recipeDemo' } }],
  ['test/fixtures/extraction.ts', extraction, { renamed: { demo: 'extractionDemo' } }],
  ['test/fixtures/fleet.ts', fleet, {}],
  ['test/fixtures/webhooks.ts', webhooks, {}],
  // the sandbox's own check on close (helpers' `sandbox()`) is the one user of answerChecker
  ['test/fixtures/openapi-check.ts', openapiCheck, { left: ['answerChecker'] }],
  ['test/fixtures/held-writes.ts', heldWrites, {}],
  ['test/fixtures/keyed-faults.ts', keyedFaults, {}],
  ['test/fixtures/proxy.ts', proxy, { renamed: { listen: 'listenProxy' } }],
  // the recipe tests' sandbox; `W` means -w 101 in that folder only
  ['test/commands/recipes/fixtures.ts', recipeCommandFixtures, { left: ['W'] }],
];

describe('test/support/index.ts', () => {
  it('takes in every module of test/fixtures', () => {
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures');
    const modules = readdirSync(fixtures)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `test/fixtures/${f}`);
    expect(modules.filter((m) => !MODULES.some(([path]) => path === m))).toEqual([]);
  });

  it.each(MODULES)('re-exports every value of %s', (_path, module, { renamed = {}, left = [] }) => {
    const missing = Object.entries(module)
      .filter(([name]) => !left.includes(name))
      .filter(([name, value]) => (index as Record<string, unknown>)[renamed[name] ?? name] !== value)
      .map(([name]) => renamed[name] ?? name);
    expect(missing, 'add them to test/support/index.ts (and its README.md)').toEqual([]);
  });
});
