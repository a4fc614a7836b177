import type { SandboxArea } from '../area.js';
import { installPipeline } from '../pipeline.js';

export const extractionArea: SandboxArea = {
  name: 'extraction',
  routes(app, store) {
    const pipeline = installPipeline(store);
    app.addHook('onClose', async () => pipeline.close());
  },
};
