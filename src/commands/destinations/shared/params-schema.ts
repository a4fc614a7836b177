import { z } from 'zod';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `destinations connections create|update --file`: the connection parameters as an object, or
 * an object with `connection_params` (an object) and an optional `title`. Loaded only when a
 * file is given.
 */
export const connectionFile = z
  .record(z.string(), z.unknown(), { error: 'must be an object of connection parameters' })
  .superRefine((doc, ctx) => {
    if (!('connection_params' in doc)) return;
    if (!isObject(doc.connection_params))
      ctx.addIssue({ code: 'custom', path: ['connection_params'], message: 'must be an object' });
  })
  .transform((doc) =>
    'connection_params' in doc
      ? {
          params: { ...(doc.connection_params as Record<string, unknown>) },
          title: doc.title === undefined ? undefined : String(doc.title),
        }
      : { params: { ...doc }, title: undefined },
  );
