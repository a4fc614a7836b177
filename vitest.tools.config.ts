import { defineConfig } from 'vitest/config';
import { PARTS, testFiles } from './test/parts.js';
import base from './vitest.config.js';

// The outside tools' part of the suite (test/parts.ts): npm run test:tools, after a build. CI runs
// it once, under the newest Node (.ci/run): its subject is the same under every Node, and the
// code it exercises runs through the rest of the suite under each.
const { include: _suite, ...common } = base.test!;

export default defineConfig({ test: { ...common, include: testFiles(PARTS.tools) } });
