import type { SandboxArea } from './area.js';
import { coreArea } from './routes/core.js';
import { sourcesArea } from './routes/sources.js';
import { extractionArea } from './routes/extraction.js';
import { recipesArea } from './routes/recipes.js';
import { webhooksArea } from './routes/webhooks.js';
import { rolesArea } from './routes/roles.js';
import { pagesArea } from './pages/index.js';

/** Every area of the service, in seeding order (sources before the areas that use accounts). */
export const areas: SandboxArea[] = [
  coreArea,
  sourcesArea,
  extractionArea,
  recipesArea,
  webhooksArea,
  rolesArea,
  pagesArea,
];
