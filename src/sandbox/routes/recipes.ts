import type { SandboxArea } from '../area.js';
import { TemplateReadFault, recipeControls } from './recipes/controls.js';
import { doctorControls } from './recipes/doctor-controls.js';
import { createBuildEngine } from './recipes/engine.js';
import { initRecipeState } from './recipes/model.js';
import { seedRecipeTemplates } from './recipes/seed.js';
import { v3Routes } from './recipes/v3.js';
import { v31Routes } from './recipes/v31.js';

/** Automated recipes: templates, recipes, configuration, builds; v3.1 and v3 over the same records. */
export const recipesArea: SandboxArea = {
  name: 'recipes',
  init: initRecipeState,
  catalog: seedRecipeTemplates,
  routes(app, store) {
    const engine = createBuildEngine(store);
    app.addHook('onClose', async () => engine.close());
    const templateReadFault = new TemplateReadFault();
    v31Routes(app, store, engine, templateReadFault.failRead);
    v3Routes(app, store, engine);
    recipeControls(app, store, templateReadFault);
    doctorControls(app, store);
    engine.resume();
    store.onReplace(() => engine.resume());
  },
};
