import type { SandboxArea } from '../area.js';

export const rolesArea: SandboxArea = {
  name: 'roles',
  routes() {},
};
