import { afterAll, expect } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';

// Run before each test file (setupFiles in vitest.config.ts): once the file's tests and its own
// afterAll hooks have ended (this one, registered first, runs last), the temporary folders it
// made go, so /tmp does not fill over runs.
const file = expect.getState().testPath ?? '';
afterAll(() => removeTempDirs(file));
