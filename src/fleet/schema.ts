import { z } from 'zod';
import { specFile } from '../recipes/spec-schema.js';
import { idField, scopeError } from '../recipes/schema.js';
import { kindsShape } from './kinds-schema.js';

/** The fleet file's shape (see file.ts); loaded only when a fleet file is read, zod with it. */

/** One workspace selector of a `workspaces:` list: an id, `all`, `title:TEXT` or `group:NAME`. */
const selector = z.union(
  [
    idField,
    z.literal('all'),
    z
      .string()
      .trim()
      .regex(/^(title|group):\s*\S/, { error: 'expected a workspace id, all, title:TEXT or group:NAME' })
      .transform((s) => s.replace(/^(title|group):\s*/, '$1:')),
  ],
  { error: 'expected a workspace id, all, title:TEXT or group:NAME' },
);

const scope = z.union(
  [
    z.literal('all'),
    z.array(selector).min(1, { error: 'needs at least one workspace: an id, all, title:TEXT or group:NAME' }),
  ],
  { error: scopeError },
);

const varName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A client of the agency: its workspace, by title (created when missing) or pinned by id. */
const clientEntry = z
  .object({
    title: z.string().trim().min(1, { error: 'must not be empty' }),
    id: idField.optional(),
    groups: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[^\s,]+$/, { error: 'a group name is one word (no spaces or commas)' }),
      )
      .optional(),
    vars: z
      .record(
        z.string().regex(varName, { error: 'a var name is letters, digits and _, not starting with a digit' }),
        z.union([z.string(), z.number(), z.boolean()], { error: 'a var is a string, a number or true/false' }),
      )
      .optional(),
  })
  .strict();

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
    workspaces: scope.optional(),
    clients: z.array(clientEntry).optional(),
    recipes: z.array(recipeEntry).optional(),
    webhooks: z.array(webhookEntry).optional(),
    roles: z.array(roleEntry).optional(),
    ...kindsShape(scope),
  })
  .strict();
