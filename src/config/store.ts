import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

export interface CachedToken {
  token: string;
  /** ms since epoch */
  issued_at: number;
  /** ms since epoch; tokens live 30 minutes after their last use */
  last_used_at: number;
}

export interface Profile {
  base_url?: string;
  username?: string;
  password?: string;
  /** cookie session (`dts_session_id`), an alternative to tokens */
  session_id?: string;
  workspace?: string;
  tokens?: Record<string, CachedToken>;
}

export interface ConfigFile {
  profiles?: Record<string, Profile>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

export function configDir(env: Record<string, string | undefined>): string {
  if (env.EDP_CONFIG_DIR) return env.EDP_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'edp');
}

export function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new UsageError(`--profile must be letters, digits, "-" or "_", got "${name}"`);
  }
  return name;
}

/**
 * The credential store: one JSON file (mode 0600, in a 0700 folder). Reading is a plain file
 * read, because every command reads it and start-up time matters; writing goes through `conf`,
 * which writes atomically with the right file mode.
 */
export class ConfigStore {
  readonly dir: string;
  readonly file: string;
  private cache: ConfigFile | undefined;

  constructor(dir: string) {
    this.dir = dir;
    this.file = join(dir, 'config.json');
  }

  read(): ConfigFile {
    if (this.cache) return this.cache;
    try {
      this.cache = JSON.parse(readFileSync(this.file, 'utf8')) as ConfigFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new UsageError(`cannot read the configuration file ${this.file}: ${(err as Error).message}`);
      }
      this.cache = {};
    }
    return this.cache;
  }

  profile(name: string): Profile {
    return this.read().profiles?.[name] ?? {};
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles ?? {});
  }

  async updateProfile(name: string, change: (profile: Profile) => Profile | undefined): Promise<void> {
    const current = structuredClone(this.read());
    const profiles = current.profiles ?? {};
    const next = change(structuredClone(profiles[name] ?? {}));
    if (next === undefined) delete profiles[name];
    else profiles[name] = next;
    current.profiles = profiles;
    await this.write(current);
  }

  private async write(data: ConfigFile): Promise<void> {
    if (!existsSync(this.dir)) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfigFile>({
      cwd: this.dir,
      configName: 'config',
      projectName: 'edp',
      configFileMode: 0o600,
      clearInvalidConfig: false,
    });
    conf.store = data;
    chmodSync(this.file, 0o600);
    this.cache = data;
  }
}
