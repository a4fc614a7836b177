import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { Writable } from 'node:stream';
import type { IO } from '../../../output/io.js';
import { SETTINGS, type SettingKey } from '../../../config/settings.js';
import { CONTEXT_OPTIONS } from '../../../global-options.js';

/**
 * `edp __complete WORD…` (hidden): what the shell scripts of `edp completion` ask for each Tab,
 * like cobra's `__complete`. The words are those after `edp` up to the cursor, the last one
 * being the word under completion (empty when the cursor follows a space). The answer is one
 * candidate per line, `value<TAB>description` where there is a description, then one
 * directive line: `:files` (let the shell complete file names), `:dirs` (folder names) or
 * `:nofiles`.
 *
 * Verbs, flags and enumerated values come from the command tree, loaded whole. Data source
 * names, workspace ids and recipe ids come from the service, within DYNAMIC_TIMEOUT_MS;
 * any failure there (no credentials, no network, too slow) just offers nothing.
 */
export const DYNAMIC_TIMEOUT_MS = 2000;

export interface Candidate {
  value: string;
  description?: string | undefined;
}

/** What the shell completes itself, from the disk: file names, folder names, or nothing. */
export type Paths = 'files' | 'dirs' | undefined;

export interface Completion {
  candidates: Candidate[];
  paths: Paths;
}

/**
 * What a value takes, from its name in the command tree: the option's `<file>` in
 * `--out <file>`, or the argument's `[plan-file]`. A name that is `file` or `path`, or ends in
 * `-file` or `-path`, takes a file; `dir`, `folder` or one ending so, a folder. So a new flag
 * named that way completes file names with nothing added here. A positional `path` is not a
 * file: `edp api METHOD path` takes the service's path.
 */
function pathsOf(valueName: string, positional: boolean): Paths {
  if (/^(?:[\w-]+-)?(?:dir|folder)$/.test(valueName)) return 'dirs';
  if (/^(?:[\w-]+-)?file$/.test(valueName)) return 'files';
  if (!positional && /^(?:[\w-]+-)?path$/.test(valueName)) return 'files';
  return undefined;
}

/** The name of an option's value in its flags, e.g. `file` in `-f, --file <file>`. */
export function optionValueName(o: Option): string | undefined {
  return /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(o.flags)?.[1];
}

/** Files or folders where the command tree says so: an option's value, or an argument. */
export function optionPaths(o: Option): Paths {
  const name = optionValueName(o);
  return name === undefined ? undefined : pathsOf(name, false);
}

type Dynamic = 'workspaces' | 'datasources' | 'recipes';

/** Values the service knows, by flag. */
const DYNAMIC_FLAGS: Record<string, Dynamic> = { '--workspace': 'workspaces', '--data-source': 'datasources' };

interface Parsed {
  command: Command;
  /** the option whose value is under completion */
  valueOf: Option | undefined;
  /** positional arguments given to `command` before the current word */
  positionals: number;
  /** those arguments' words */
  words: string[];
  afterDoubleDash: boolean;
  /** global flags seen, for dynamic lookups */
  flags: Record<string, string>;
}

function visibleOptions(cmd: Command): Option[] {
  return cmd.options.filter((o) => !o.hidden);
}

/** The options in force for `cmd`: its own, then its ancestors' (commander's global options). */
function optionsInScope(cmd: Command): Option[] {
  const out: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(...visibleOptions(c));
  return out;
}

function findOption(cmd: Command, word: string): Option | undefined {
  return optionsInScope(cmd).find((o) => o.long === word || o.short === word);
}

function takesValue(o: Option): boolean {
  return o.required || o.optional;
}

function isHidden(cmd: Command): boolean {
  return (cmd as unknown as { _hidden?: boolean })._hidden === true;
}

function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

function parse(program: Command, words: string[]): Parsed {
  let command = program;
  let positionals = 0;
  const positionalWords: string[] = [];
  let afterDoubleDash = false;
  const flags: Record<string, string> = {};
  let valueOf: Option | undefined;
  for (let i = 0; i < words.length - 1; i++) {
    const word = words[i]!;
    if (afterDoubleDash) {
      positionals++;
      positionalWords.push(word);
      continue;
    }
    if (word === '--') {
      afterDoubleDash = true;
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      const eq = word.indexOf('=');
      const name = eq > 0 ? word.slice(0, eq) : word;
      const option = findOption(command, name);
      if (option && takesValue(option) && eq < 0) {
        if (i + 1 === words.length - 1) {
          valueOf = option;
        } else {
          const key = CONTEXT_OPTIONS[name];
          if (key) flags[key] = words[i + 1]!;
          i++;
        }
      } else if (option && eq > 0) {
        const key = CONTEXT_OPTIONS[name];
        if (key) flags[key] = word.slice(eq + 1);
      }
      continue;
    }
    const sub = positionals === 0 ? subcommand(command, word) : undefined;
    if (sub) command = sub;
    else {
      positionals++;
      positionalWords.push(word);
    }
  }
  return { command, valueOf, positionals, words: positionalWords, afterDoubleDash, flags };
}

function optionCandidates(cmd: Command): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const o of optionsInScope(cmd)) {
    for (const name of [o.long, o.short]) {
      if (name && !seen.has(name)) {
        seen.add(name);
        out.push({ value: name, description: o.description });
      }
    }
  }
  out.push({ value: '--help', description: 'show help' });
  return out;
}

/** What a value flag or an argument takes: fixed choices, file names, values from the service, or nothing. */
type ValueKind = { choices: string[] } | { paths: 'files' | 'dirs' } | { dynamic: Dynamic } | undefined;

function optionValueKind(o: Option): ValueKind {
  if (o.argChoices && o.argChoices.length > 0) return { choices: o.argChoices };
  const paths = optionPaths(o);
  if (paths) return { paths };
  const dynamic = o.long ? DYNAMIC_FLAGS[o.long] : undefined;
  if (dynamic) return { dynamic };
  return undefined;
}

/** Values of a setting where they are known: `edp config set KEY <TAB>`. */
const SETTING_VALUES: Partial<Record<SettingKey, ValueKind>> = {
  workspace: { dynamic: 'workspaces' },
  concurrency: { choices: ['auto'] },
};

function argumentValueKind(cmd: Command, index: number, words: string[]): ValueKind {
  const args = cmd.registeredArguments;
  const arg = args[Math.min(index, args.length - 1)];
  if (!arg || (index >= args.length && !arg.variadic)) return undefined;
  if (arg.argChoices && arg.argChoices.length > 0) return { choices: arg.argChoices };
  const description = arg.description.toLowerCase();
  if (/^(automated )?recipe id/.test(description)) return { dynamic: 'recipes' };
  if (/^workspace id/.test(description)) return { dynamic: 'workspaces' };
  if (cmd.parent?.name() === 'config') {
    if (arg.name() === 'key') return { choices: Object.keys(SETTINGS) };
    if (arg.name() === 'value') return SETTING_VALUES[words[0] as SettingKey];
  }
  const paths = pathsOf(arg.name(), true);
  return paths ? { paths } : undefined;
}

/**
 * bash splits `--out=plan.json` at the `=` (it is in COMP_WORDBREAKS), so its words are `--out`,
 * `=`, `plan.json`: they are joined back to the flag and its value, as the other shells pass them.
 */
function joinEquals(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const previous = out[out.length - 1];
    if (words[i] === '=' && previous?.startsWith('--') && !previous.includes('=')) {
      out.push(words[i + 1] ?? '');
      i++;
    } else out.push(words[i]!);
  }
  return out;
}

/** The static part: everything the command tree says. Dynamic kinds are returned for the caller to look up. */
export function completeStatic(
  program: Command,
  given: string[],
): { completion: Completion; dynamic?: Dynamic; flags: Record<string, string> } {
  const words = joinEquals(given);
  const current = words[words.length - 1] ?? '';
  const parsed = parse(program, words.length === 0 ? [''] : words);
  const { command, flags } = parsed;
  const answer = (kind: ValueKind): { completion: Completion; dynamic?: Dynamic; flags: Record<string, string> } => {
    if (kind && 'choices' in kind)
      return { completion: { candidates: kind.choices.map((value) => ({ value })), paths: undefined }, flags };
    if (kind && 'paths' in kind) return { completion: { candidates: [], paths: kind.paths }, flags };
    if (kind && 'dynamic' in kind)
      return { completion: { candidates: [], paths: undefined }, dynamic: kind.dynamic, flags };
    return { completion: { candidates: [], paths: undefined }, flags };
  };
  if (parsed.valueOf) return answer(optionValueKind(parsed.valueOf));
  // --flag=value: the value of the flag, offered with its prefix.
  const eq = current.indexOf('=');
  if (current.startsWith('--') && eq > 0) {
    const option = findOption(command, current.slice(0, eq));
    if (!option || !takesValue(option)) return answer(undefined);
    const result = answer(optionValueKind(option));
    const prefix = current.slice(0, eq + 1);
    result.completion.candidates = result.completion.candidates.map((c) => ({ value: prefix + c.value }));
    return result;
  }
  if (current.startsWith('-') && !parsed.afterDoubleDash) {
    return { completion: { candidates: optionCandidates(command), paths: undefined }, flags };
  }
  if (parsed.positionals === 0 && !parsed.afterDoubleDash) {
    const subs = command.commands.filter((c) => !isHidden(c) && c.name() !== 'help');
    if (subs.length > 0) {
      return {
        completion: {
          candidates: subs.map((c) => ({ value: c.name(), description: c.description() })),
          paths: undefined,
        },
        flags,
      };
    }
  }
  return answer(argumentValueKind(command, parsed.positionals, parsed.words));
}

/** Values from the service for `kind`; the caller bounds the time and swallows failures. */
async function lookUp(
  kind: Dynamic,
  flags: Record<string, string>,
  from: Pick<IO, 'env' | 'sleep' | 'now'>,
  signal: AbortSignal,
): Promise<Candidate[]> {
  const [{ Context }, { idText }] = await Promise.all([import('../../../context.js'), import('../../../util/json.js')]);
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const io: IO = {
    // created only if something reads it (nothing here does), as in processIO()
    get stdin() {
      return process.stdin;
    },
    stdout: silent,
    stderr: silent,
    env: from.env,
    sleep: from.sleep,
    now: from.now,
  };
  const ctx = new Context(io, { ...flags, quiet: true, input: false }, signal);
  try {
    const api = await ctx.api();
    const out: Candidate[] = [];
    if (kind === 'workspaces') {
      const { listWorkspaces } = await import('../../../api/workspaces.js');
      for await (const w of listWorkspaces(api, { limit: 500 }))
        out.push({ value: idText(w.id), description: w.title });
    } else if (kind === 'datasources') {
      const { listDataSources } = await import('../../../api/datasources.js');
      for await (const d of listDataSources(api, ctx.requireWorkspace(), { limit: 500 }))
        out.push({ value: d.name, description: d.title });
    } else {
      const { listRecipes } = await import('../../../api/recipes.js');
      for await (const r of listRecipes(api, ctx.requireWorkspace(), {}, { limit: 500 })) {
        const recipe = r as { recipe_id?: unknown; id?: unknown; title?: unknown };
        out.push({
          value: idText(recipe.recipe_id ?? recipe.id),
          description: typeof recipe.title === 'string' ? recipe.title : undefined,
        });
      }
    }
    return out;
  } finally {
    await ctx.finish().catch(() => undefined);
  }
}

/** Service text shown by a shell: no tabs, line breaks or control characters. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** The whole answer, static and dynamic, for `words`. */
export async function complete(
  program: Command,
  words: string[],
  io: Pick<IO, 'env' | 'sleep' | 'now'>,
  timeoutMs = DYNAMIC_TIMEOUT_MS,
): Promise<Completion> {
  const { completion, dynamic, flags } = completeStatic(program, words);
  if (!dynamic) return completion;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookUp(dynamic, flags, io, controller.signal),
      new Promise<Candidate[]>((resolve) => {
        timer = setTimeout(() => resolve([]), timeoutMs);
      }),
    ]);
    return { candidates: found, paths: undefined };
  } catch {
    return { candidates: [], paths: undefined };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** The protocol text: candidates starting with the current word, then the directive. */
export function formatCompletion(completion: Completion, current: string): string {
  const lines = completion.candidates
    .filter((c) => c.value.startsWith(current) && c.value !== '')
    .map((c) => {
      const value = clean(c.value);
      const description = c.description ? clean(c.description) : '';
      return description ? `${value}\t${description}` : value;
    });
  lines.push(completion.paths ? `:${completion.paths}` : ':nofiles');
  return `${lines.join('\n')}\n`;
}

export async function runComplete(program: Command, words: string[], io: IO): Promise<number> {
  try {
    const completion = await complete(program, words, io);
    io.stdout.write(formatCompletion(completion, joinEquals(words).at(-1) ?? ''));
  } catch {
    io.stdout.write(':nofiles\n');
  }
  return 0;
}
