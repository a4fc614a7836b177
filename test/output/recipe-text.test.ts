import { describe, expect, it } from 'vitest';
import { stateText } from '../../src/output/recipe-text.js';

describe('stateText: a recipe state in words', () => {
  it('names a recipe never built, marks a degraded ready one, and shows other states as they come', () => {
    expect(stateText({ state: null, degraded: false })).toBe('not built');
    expect(stateText({ state: 'ready_to_work', degraded: true })).toBe('ready_to_work (degraded)');
    expect(stateText({ state: 'ready_to_work', degraded: false })).toBe('ready_to_work');
    // Only a ready recipe is called degraded: a build under way keeps its own word.
    expect(stateText({ state: 'extracting_data', degraded: true })).toBe('extracting_data');
    expect(stateText({ state: 'a_state_of_tomorrow', degraded: false })).toBe('a_state_of_tomorrow');
  });
});
