import { describe, expect, it } from 'vitest';
import { parseFleetFile } from '../../src/fleet/file.js';
import type { DocumentError } from '../../src/util/document.js';

const failure = (doc: unknown) =>
  parseFleetFile(doc, '--file').then(
    () => undefined,
    (err: unknown) => err as DocumentError,
  );

describe('fleet file checks across entries', () => {
  it('an entry clashing with earlier ones names the first it shares a workspace with', async () => {
    const hook = (workspaces?: unknown) => ({
      url: 'https://hooks.example.com/a',
      events: ['workspace_created'],
      ...(workspaces === undefined ? {} : { workspaces }),
    });
    const err = await failure({
      workspaces: [101, 102, 103],
      webhooks: [hook([101]), hook([102]), hook([103, 102]), hook('all'), hook([104])],
      roles: [
        { title: 'A', permissions: [] },
        { title: 'B', permissions: [] },
        { title: 'A', permissions: [] },
      ],
    });
    // With no text to place them in, problems are in the order they are found.
    expect(err!.details.problems.map((p) => [p.path, p.message])).toEqual([
      ['roles[2]', 'same as roles[0] (A); name each once, with its workspaces'],
      ['webhooks[2]', 'https://hooks.example.com/a is also in webhooks[1] for the same workspace(s)'],
      ['webhooks[3]', 'https://hooks.example.com/a is also in webhooks[0] for the same workspace(s)'],
      ['webhooks[4]', 'https://hooks.example.com/a is also in webhooks[3] for the same workspace(s)'],
    ]);
  });

  it('many entries that all clash are one problem each, the first ones listed', async () => {
    const count = 20_000;
    const webhooks = Array.from({ length: count }, () => ({
      url: 'https://hooks.example.com/a',
      events: ['workspace_created'],
    }));
    const roles = Array.from({ length: count }, () => ({ title: 'A', permissions: [] }));
    const err = await failure({ workspaces: 'all', webhooks, roles });
    expect(err!.details.problems).toHaveLength(50);
    expect(err!.details.more).toBe(2 * (count - 1) - 50);
    expect(err!.details.problems[0]).toMatchObject({
      path: 'roles[1]',
      message: expect.stringMatching(/^same as roles\[0\]/),
    });
  });
});
