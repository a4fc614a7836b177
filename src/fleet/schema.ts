import { z } from 'zod';
import { specFile } from '../recipes/spec-schema.js';
import { idField, scopeError } from '../recipes/schema.js';

/** The fleet file's shape (see file.ts); loaded only when a fleet file is read, zod with it. */

const scope = z.union(
  [z.literal('all'), z.array(idField).min(1, { error: 'needs at least one workspace id, or "all"' })],
  { error: scopeError },
);

// A recipe entry is a deploy spec: the same schema, less the run setting, plus its scope.
const recipeEntry = specFile
  .omit({ concurrency: true, workspaces: true })
  .extend({ workspaces: scope.optional() })
  .strict();

const webhookEntry = z
  .object({
    url: z
      .string()
      .trim()
      .url({ error: 'must be an http(s) URL' })
      .refine((u) => /^https?:\/\//i.test(u), { error: 'must be an http(s) URL' }),
    events: z.array(z.string().trim().min(1)).min(1, { error: 'needs at least one event type' }),
    workspaces: scope.optional(),
  })
  .strict();

const roleEntry = z
  .object({
    title: z.string().trim().min(1, { error: 'must not be empty' }),
    description: z.string().optional(),
    permissions: z.array(
      z.union([z.string(), z.object({ layer: z.string().min(1), permission: z.string().min(1) }).strict()], {
        error: 'expected LAYER:PERMISSION (for example EXTRACT:CREATE) or {layer, permission}',
      }),
    ),
  })
  .strict();

export const fleetSchema = z
  .object({
    workspaces: scope,
    recipes: z.array(recipeEntry).optional(),
    webhooks: z.array(webhookEntry).optional(),
    roles: z.array(roleEntry).optional(),
  })
  .strict();
