/**
 * The shell scripts of `edp completion`. Each is a thin client of `edp __complete` (see
 * complete.ts): it passes the words up to the cursor and offers what comes back, or file
 * names when the answer ends in `:files` (folder names for `:dirs`), which the shell's own
 * file completion finds. So the tree, the flags and the values are the installed edp's own,
 * however it changes. A script defines a function and registers it, nothing more: it is
 * loaded with each shell, and each Tab runs one `edp __complete`.
 */

import type { Shell } from '../command.js';

const BASH = `# edp completion for bash.
# Load it now:      source <(edp completion bash)
# Or for good:      edp completion bash > ~/.local/share/bash-completion/completions/edp
_edp() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" out directive line
  out="$(edp __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" || return 0
  directive="\${out##*$'\\n'}"
  if [[ "$out" == *$'\\n'* ]]; then out="\${out%$'\\n'*}"; else out=""; fi
  COMPREPLY=()
  # Right after \`--out=\`, bash's current word is the \`=\` (a word break): none of the value is typed.
  [[ "$cur" == "=" ]] && cur=""
  if [[ "$directive" == ":files" || "$directive" == ":dirs" ]]; then
    compopt -o filenames 2>/dev/null
    local kind=-f
    [[ "$directive" == ":dirs" ]] && kind=-d
    while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen "$kind" -- "$cur")
    return 0
  fi
  while IFS= read -r line; do
    [[ -n "$line" ]] && COMPREPLY+=("\${line%%$'\\t'*}")
  done <<< "$out"
  return 0
}
complete -F _edp edp
`;

const ZSH = `#compdef edp
# edp completion for zsh.
# Load it now:      source <(edp completion zsh)
# Or for good:      edp completion zsh > "\${fpath[1]}/_edp"   (then start a new shell)
_edp() {
  local out directive line
  local -a lines candidates
  out="$(edp __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)" || return 1
  lines=("\${(@f)out}")
  directive="\${lines[-1]}"
  lines=("\${(@)lines[1,-2]}")
  if [[ "$directive" == ":files" || "$directive" == ":dirs" ]]; then
    # --out=plan.json: the file name is what follows the =
    [[ "$PREFIX" == --*=* ]] && compset -P '*='
    if [[ "$directive" == ":dirs" ]]; then _files -/; else _files; fi
    return
  fi
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    if [[ "$line" == *$'\\t'* ]]; then
      candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      candidates+=("\${line//:/\\\\:}")
    fi
  done
  (( \${#candidates} )) && _describe -t values edp candidates
}
if [[ "\${funcstack[1]}" == "_edp" ]]; then
  _edp "$@"
else
  compdef _edp edp
fi
`;

const FISH = `# edp completion for fish.
# Load it now:      edp completion fish | source
# Or for good:      edp completion fish > ~/.config/fish/completions/edp.fish
function __edp_complete
    set -l words (commandline -opc) (commandline -ct)
    set -e words[1]
    set -l out (edp __complete $words 2>/dev/null)
    or return
    set -l directive $out[-1]
    set -e out[-1]
    if test "$directive" = ":files" -o "$directive" = ":dirs"
        # --out=plan.json: the file name is what follows the =, offered with the flag before it
        set -l token (commandline -ct)
        set -l flag (string replace -r -- '^(--[^=]*=)?.*$' '$1' "$token")
        set -l value (string replace -r -- '^--[^=]*=' '' "$token")
        if test "$directive" = ":dirs"
            printf '%s\\n' $flag(__fish_complete_directories "$value")
        else
            printf '%s\\n' $flag(__fish_complete_path "$value")
        end
        return
    end
    for line in $out
        test -n "$line"; and echo $line
    end
end
complete -c edp -f -a '(__edp_complete)'
`;

export function completionScript(shell: Shell): string {
  return shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : FISH;
}
