import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { App } from '../app.js';

interface Node {
  path: string[];
  subcommands: string[];
  options: string[];
}

function walk(cmd: Command, path: string[], out: Node[]): void {
  out.push({
    path,
    subcommands: cmd.commands.map((c) => c.name()),
    options: cmd.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x)),
  });
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()], out);
}

export function completionScript(program: Command, shell: string): string {
  const nodes: Node[] = [];
  walk(program, [], nodes);
  const globals = nodes[0]!.options;
  const words = (n: Node) => [...n.subcommands, ...n.options, ...globals].join(' ');
  if (shell === 'bash' || shell === 'zsh') {
    const cases = nodes
      .map((n) => `    "${n.path.join(' ')}") words="${words(n)}" ;;`)
      .join('\n');
    const body = `_edp_complete() {
  local cur path="" w i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -z "$path" ]]; then candidate="$w"; else candidate="$path $w"; fi
    case "$candidate" in
${nodes.map((n) => `      "${n.path.join(' ')}") path="$candidate" ;;`).join('\n')}
    esac
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _edp_complete edp
`;
    return shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${body}` : body;
  }
  if (shell === 'fish') {
    const lines = ['complete -c edp -f'];
    for (const n of nodes) {
      const cond = n.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${n.path[n.path.length - 1]}`;
      for (const sub of n.subcommands) lines.push(`complete -c edp -n '${cond}' -a ${sub}`);
    }
    for (const o of globals) if (o.startsWith('--')) lines.push(`complete -c edp -l ${o.slice(2)}`);
    return `${lines.join('\n')}\n`;
  }
  throw new UsageError(`completion: shell must be bash, zsh or fish, got "${shell}"`);
}

export function registerCompletion(program: Command, app: App): void {
  program
    .command('completion')
    .argument('<shell>', 'bash, zsh or fish')
    .description('print a shell completion script')
    .addHelpText('after', '\nExamples:\n  source <(edp completion bash)\n  edp completion fish > ~/.config/fish/completions/edp.fish')
    .action(
      app.run(async (ctx, [shell]) => {
        ctx.output.write(completionScript(program, String(shell)));
        return 0;
      }),
    );
}
