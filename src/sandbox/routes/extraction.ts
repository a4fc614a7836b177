import type { SandboxArea } from '../area.js';
import { installPipeline } from '../pipeline.js';

let pipeline: { close(): void } | undefined;

export const extractionArea: SandboxArea = {
  name: 'extraction',
  init(store) {
    pipeline = installPipeline(store);
  },
  routes() {},
  close() {
    pipeline?.close();
  },
};
