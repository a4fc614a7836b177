import { randomBytes } from 'node:crypto';

/** A seeded generator: the next number, and its position, which a reset or restore puts back. */
export interface SeededRandom {
  (): number;
  position: number;
}

/** mulberry32: a small seeded generator, so a seed gives the same data and the same faults. */
export function seededRandom(seed: number): SeededRandom {
  const next = (() => {
    next.position = (next.position + 0x6d2b79f5) >>> 0;
    let t = next.position;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as SeededRandom;
  next.position = seed >>> 0;
  return next;
}

/** A random hex secret (tokens, sessions, signing secrets): never seeded. */
export function secret(bytes = 24): string {
  return randomBytes(bytes).toString('hex');
}
