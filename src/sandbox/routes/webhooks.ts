import type { SandboxArea } from '../area.js';

export const webhooksArea: SandboxArea = {
  name: 'webhooks',
  routes() {},
};
