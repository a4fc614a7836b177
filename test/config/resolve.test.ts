import { describe, expect, it } from 'vitest';
import { RunSettings } from '../../src/config/resolve.js';
import type { Profile } from '../../src/config/store.js';
import type { GlobalOptionValues } from '../../src/global-options.js';

/** A run's settings from these flags, variables and profile values. */
function settings(
  flags: GlobalOptionValues = {},
  env: Record<string, string> = {},
  profile: Profile = {},
): RunSettings {
  return new RunSettings({ flags, env, profile: () => profile });
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('the workspace of a single-workspace verb', () => {
  it('comes from -w, then EDP_WORKSPACE, then the profile, each named', () => {
    expect(settings({ workspace: '103' }, { EDP_WORKSPACE: '102' }, { workspace: '101' }).workspace()).toEqual({
      value: '103',
      origin: 'flag',
      what: '--workspace',
    });
    expect(settings({}, { EDP_WORKSPACE: ' 102 ' }, { workspace: '101' }).workspace()).toEqual({
      value: '102',
      origin: 'env',
      what: 'EDP_WORKSPACE',
    });
    expect(settings({}, { EDP_WORKSPACE: '' }, { workspace: '101' }).workspace()).toEqual({
      value: '101',
      origin: 'profile',
      what: 'profile "default" setting workspace',
    });
    expect(settings().workspace()).toBeUndefined();
  });

  it('takes the same forms from the flag and the variable: a list is refused alike, naming its source', () => {
    expect(refusal(() => settings({ workspace: '101,102' }).workspace())).toBe(
      '--workspace names 2 workspaces (101,102); this command acts in one: name one id',
    );
    expect(refusal(() => settings({}, { EDP_WORKSPACE: '101,102' }).workspace())).toBe(
      'EDP_WORKSPACE names 2 workspaces (101,102); this command acts in one: name one id',
    );
    expect(refusal(() => settings({}, { EDP_WORKSPACE: 'abc' }).workspace())).toContain(
      'EDP_WORKSPACE must be a positive integer id',
    );
    expect(refusal(() => settings({ profile: 'ci' }, {}, { workspace: 'x' as never }).workspace())).toContain(
      'profile "ci" setting workspace',
    );
  });
});

describe('the workspaces of a verb that spans them', () => {
  it('come from -w or EDP_WORKSPACE, in the same forms, or --all-workspaces; never from the profile', () => {
    expect(settings({ workspace: '101,102' }).workspaceScope({})?.value).toEqual(['101', '102']);
    expect(settings({}, { EDP_WORKSPACE: '101,102' }).workspaceScope({})?.value).toEqual(['101', '102']);
    expect(settings({}, { EDP_WORKSPACE: '101' }).workspaceScope({ allWorkspaces: true })?.value).toBe('all');
    expect(settings({}, {}, { workspace: '101' }).workspaceScope({})).toBeUndefined();
    expect(refusal(() => settings({}, {}, { workspace: '101' }).requireWorkspaceScope({}))).toBe(
      'name the workspaces: pass -w/--workspace ID[,ID…], set EDP_WORKSPACE, or pass --all-workspaces (the default workspace 101 of profile "default" is for single-workspace commands: -w 101 names it here)',
    );
    expect(refusal(() => settings({ workspace: '101' }).workspaceScope({ allWorkspaces: true }))).toBe(
      'pass either -w/--workspace or --all-workspaces, not both',
    );
  });

  it('a fleet file is narrowed by -w or EDP_WORKSPACE alike, never by the profile', () => {
    expect(settings({ workspace: '101' }).fleetScope()?.value).toEqual(['101']);
    expect(settings({}, { EDP_WORKSPACE: '101' }).fleetScope()?.value).toEqual(['101']);
    expect(settings({}, {}, { workspace: '101' }).fleetScope()).toBeUndefined();
  });
});

describe('EDP_TOKEN acts in the one workspace EDP_WORKSPACE names', () => {
  const token = { EDP_TOKEN: 'abc' };

  it('is refused without EDP_WORKSPACE, or with a list there', () => {
    expect(refusal(() => settings({ workspace: '101' }, token).credentials())).toContain(
      'EDP_TOKEN is the token of one workspace, which cannot be read from the token: set EDP_WORKSPACE',
    );
    expect(refusal(() => settings({}, token, { workspace: '101' }).workspace())).toContain('set EDP_WORKSPACE');
    expect(refusal(() => settings({}, { ...token, EDP_WORKSPACE: '101,102' }).credentials())).toContain(
      'EDP_WORKSPACE names 2 workspaces (101,102) and EDP_TOKEN is the token of one',
    );
  });

  it('a -w naming another workspace, several, or --all-workspaces is refused; the same one is taken', () => {
    const env = { ...token, EDP_WORKSPACE: '101' };
    expect(refusal(() => settings({ workspace: '103' }, env).workspace())).toBe(
      "EDP_TOKEN is the token of workspace 101 (EDP_WORKSPACE) and acts there alone; --workspace names workspace 103: unset EDP_TOKEN to act in other workspaces with the agency's credentials",
    );
    expect(refusal(() => settings({ workspace: '101,102,103' }, env).workspaceScope({}))).toContain(
      '--workspace names workspaces 101,102,103',
    );
    expect(refusal(() => settings({}, env).workspaceScope({ allWorkspaces: true }))).toContain(
      '--all-workspaces cannot be used with EDP_TOKEN',
    );
    expect(settings({ workspace: '101' }, env).workspace()?.value).toBe('101');
    expect(settings({}, env, { workspace: '103' }).workspace()?.value).toBe('101');
    expect(settings({}, env).workspaceScope({})?.value).toEqual(['101']);
    expect(settings({}, env).credentials()).toMatchObject({ token: 'abc', source: 'env' });
  });

  it('without EDP_TOKEN, -w names any workspace', () => {
    expect(settings({ workspace: '103' }, { EDP_WORKSPACE: '101' }).workspace()?.value).toBe('103');
  });
});

describe('waits', () => {
  it('are checked the same way for every verb: the deadline longer than 0, the first pause from its sources', () => {
    expect(settings().waitTiming({})).toEqual({ timeoutMs: 30 * 60_000, timeoutText: '30m', intervalMs: 2000 });
    expect(settings({}, { EDP_POLL_INTERVAL: '5s' }).waitTiming({ waitTimeout: '1m' })).toEqual({
      timeoutMs: 60_000,
      timeoutText: '1m',
      intervalMs: 5000,
    });
    expect(settings({}, {}, { poll_interval: '3s' }).waitTiming({})?.intervalMs).toBe(3000);
    expect(refusal(() => settings().waitTiming({ waitTimeout: '0s' }))).toBe(
      '--wait-timeout must be longer than 0, got "0s"',
    );
    expect(refusal(() => settings({}, { EDP_POLL_INTERVAL: '0s' }).waitTiming({}))).toContain('EDP_POLL_INTERVAL');
  });

  it('a verb that waits on request refuses its timing flags without it', () => {
    expect(refusal(() => settings().waitTiming({ waitTimeout: '5m' }, { flag: '--wait', given: false }))).toBe(
      '--wait-timeout works with --wait',
    );
    expect(refusal(() => settings().waitTiming({ pollInterval: '1s' }, { flag: '--watch', given: false }))).toBe(
      '--poll-interval works with --watch',
    );
    expect(settings().waitTiming({}, { flag: '--wait', given: false })).toBeUndefined();
    expect(settings().waitTiming({}, { flag: '--wait', given: true })?.timeoutMs).toBe(30 * 60_000);
  });
});

describe('the profile, the address and the timeout', () => {
  it('are resolved once, each naming its source', () => {
    expect(settings({ profile: 'ops' }, { EDP_PROFILE: 'ci' }).profile).toEqual({
      value: 'ops',
      origin: 'flag',
      what: '--profile',
    });
    expect(settings({}, { EDP_PROFILE: 'ci' }).profile.origin).toBe('env');
    expect(settings({}, { EDP_PROFILE: '' }).profile.value).toBe('default');
    expect(settings({}, {}, { base_url: 'https://edp.example.com/' }).baseUrl()).toEqual({
      value: 'https://edp.example.com',
      origin: 'profile',
      what: 'profile "default" setting base_url',
    });
    expect(refusal(() => settings({}, { EDP_BASE_URL: 'ftp://x' }).baseUrl())).toContain('EDP_BASE_URL must be');
    expect(settings({ timeout: '2s' }).timeout.value).toBe(2000);
    expect(refusal(() => settings({ timeout: '0s' }))).toBe('--timeout must be longer than 0');
  });
});
