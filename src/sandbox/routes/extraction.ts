import type { SandboxArea } from '../area.js';
import { installPipeline } from '../pipeline.js';
import { destinationRoutes } from './extraction/destinations.js';
import { extractRoutes } from './extraction/extracts.js';
import { loadRoutes } from './extraction/loads.js';
import { seedExtraction } from './extraction/seed.js';
import { tableRoutes } from './extraction/tables.js';
import { templateRoutes } from './extraction/templates.js';

/** Extraction templates, extracts, data tables, destinations and loads (contract, Endpoints). */
export const extractionArea: SandboxArea = {
  name: 'extraction',
  init(store) {
    store.state.data_table_rows ??= {};
    store.state.loads ??= [];
    store.state.load_exports ??= [];
  },
  seed(store) {
    seedExtraction(store);
  },
  routes(app, store) {
    const pipeline = installPipeline(store);
    app.addHook('onClose', async () => pipeline.close());
    templateRoutes(app, store);
    extractRoutes(app, store);
    tableRoutes(app, store);
    destinationRoutes(app, store);
    loadRoutes(app, store);
  },
};
