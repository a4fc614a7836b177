import type { SandboxArea } from '../area.js';

export const recipesArea: SandboxArea = {
  name: 'recipes',
  routes() {},
};
