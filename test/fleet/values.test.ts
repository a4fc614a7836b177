import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import {
  hiddenIn,
  referencesOf,
  resolveValues,
  secretText,
  sentValue,
  shownValue,
  type EnvSecret,
} from '../../src/fleet/values.js';

const scope = (vars?: Record<string, string>, env: Record<string, string | undefined> = {}) => ({
  vars,
  owner: vars ? 'client "Acme Retail"' : 'workspace 103',
  env,
});

describe('fleet values', () => {
  it('resolves ${var.…} to a string and anything from ${env.…} to an EnvSecret; $${ is a literal ${', () => {
    const r = resolveValues(
      { url: 'https://h.example.com/${var.slug}?k=${env.KEY}', note: 'costs $${x} at ${var.slug}', n: 3 },
      scope({ slug: 'acme' }, { KEY: 's3cr3t' }),
    );
    expect(r.problems).toEqual([]);
    expect(r.value).toEqual({
      url: { kind: 'env', names: ['KEY'], value: 'https://h.example.com/acme?k=s3cr3t' },
      note: 'costs ${x} at acme',
      n: 3,
    });
    expect(shownValue(r.value)).toEqual({ url: '(from env KEY)', note: 'costs ${x} at acme', n: 3 });
    expect(sentValue(r.value)).toEqual({
      url: 'https://h.example.com/acme?k=s3cr3t',
      note: 'costs ${x} at acme',
      n: 3,
    });
  });

  it('names each reference it cannot resolve, at its path, with the nearest var', () => {
    const r = resolveValues({ a: ['${var.slgu}', '${env.UNSET}', '${foo}'] }, scope({ slug: 'acme' }));
    expect(r.problems).toEqual([
      expect.objectContaining({ path: ['a', 0], suggestion: 'slug', ref: '${var.slgu}' }),
      expect.objectContaining({ path: ['a', 1], message: '${env.UNSET}: UNSET is not set in the environment' }),
      expect.objectContaining({ path: ['a', 2], ref: '${foo}' }),
    ]);
    expect(resolveValues('${var.slug}', scope()).problems[0]!.message).toContain('workspace 103 is no client');
    expect(referencesOf('x ${var.a} $${y} ${env.B} ${oops').refs).toEqual([
      { kind: 'var', name: 'a' },
      { kind: 'env', name: 'B' },
    ]);
    expect(referencesOf('${oops').malformed).toEqual(['${oops']);
  });

  it('hides a secret wherever a planned string holds it, and keeps big ids as they are', () => {
    const secret: EnvSecret = { kind: 'env', names: ['KEY'], value: 'https://h.example.com/?k=s3' };
    const id = new LosslessNumber('9007199254740993');
    const planned = { name: 'https://h.example.com/?k=s3', detail: { id, was: 'none', sent: secret } };
    const hidden = hiddenIn(planned, [secret]) as typeof planned;
    expect(hidden.name).toBe(secretText(secret));
    expect(hidden.detail.id).toBe(id);
    // An EnvSecret is left for shownValue, which the plan's writers apply.
    expect(hidden.detail.sent).toBe(secret);
    expect((shownValue(hidden) as typeof planned).detail).toEqual({ id, was: 'none', sent: '(from env KEY)' });
  });
});
