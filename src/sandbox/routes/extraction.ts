import type { SandboxArea } from '../area.js';

export const extractionArea: SandboxArea = {
  name: 'extraction',
  routes() {},
};
