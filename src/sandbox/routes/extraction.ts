import type { SandboxArea } from '../area.js';
import { installPipeline } from '../pipeline.js';
import { destinationRoutes } from './extraction/destinations.js';
import { extractRoutes } from './extraction/extracts.js';
import { loadRoutes } from './extraction/loads.js';
import { seedExtraction } from './extraction/seed.js';
import { tableRoutes } from './extraction/tables.js';
import { templateRoutes } from './extraction/templates.js';

/** Extraction templates, extracts, data tables, destinations and loads (docs/contract-rules.md, Endpoints). */
export const extractionArea: SandboxArea = {
  name: 'extraction',
  init(store) {
    store.state.data_table_rows ??= {};
    store.state.loads ??= [];
    store.state.load_exports ??= [];
    // Runs live in timers: a state loaded from a file has none going, so none is shown as running.
    for (const e of store.state.extracts) if (e.status === 'running') e.status = 'new';
    for (const l of store.state.loads) {
      if (l.last_run?.status === 'running')
        Object.assign(l.last_run, {
          status: 'failed',
          error: 'The sandbox restarted during the run.',
          finished_at: store.clock.iso(),
        });
    }
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
