import type { SandboxArea } from '../area.js';

export const sourcesArea: SandboxArea = {
  name: 'sources',
  routes() {},
};
