import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from '../helpers.js';

// Every command the tool suggests is made by util/suggest.ts (or `ctx.hint`, which calls it), so
// it carries the -w, --profile and quoting it needs pasted. Here, every such call in the sources
// is read and its words are parsed through the command tree: a renamed verb or flag fails here,
// not in a user's shell. And no message spells a command by hand.

/** The tool's sources (the sandbox is the service's stand-in: it suggests no edp command). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join('src', 'sandbox') ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

interface Call {
  at: string;
  words: string[];
}

/**
 * The words of each `suggest([...])` and `.hint(...)` call: string literals as they are, any other
 * expression as a stand-in value (`1`), a spread of `cond ? [...] : []` as the words it may add.
 */
function suggestionCalls(file: string): Call[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const calls: Call[] = [];
  const word = (e: ts.Expression): string[] => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isSpreadElement(e)) {
      const inner = ts.isParenthesizedExpression(e.expression) ? e.expression.expression : e.expression;
      if (ts.isConditionalExpression(inner) && ts.isArrayLiteralExpression(inner.whenTrue))
        return inner.whenTrue.elements.flatMap(word);
      if (ts.isArrayLiteralExpression(inner)) return inner.elements.flatMap(word);
      return [];
    }
    return ['1'];
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : undefined;
      const at = `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const first = node.arguments[0];
      if (name === 'suggest' && first && ts.isArrayLiteralExpression(first))
        calls.push({ at, words: first.elements.flatMap(word) });
      else if (name === 'hint' && first && (ts.isStringLiteral(first) || ts.isSpreadElement(first)))
        calls.push({ at, words: node.arguments.flatMap(word) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/** The string and template literals of a file that spell an `edp` command of the tree, with their lines. */
function handSpelled(file: string, commands: string[], named: RegExp[]): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const spelled = new RegExp(`\\bedp (${commands.join('|')})\\b`);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const texts =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? [node.text]
        : ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)]
          : [];
    for (const text of texts)
      if (spelled.test(named.reduce((t, n) => t.replace(n, ''), text)))
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${text.slice(0, 80)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sources('src');

describe('suggested commands', () => {
  const calls = files.flatMap(suggestionCalls);

  it('are found in the sources', () => {
    expect(calls.length).toBeGreaterThanOrEqual(80);
  });

  it('each parses through the command tree', async () => {
    const failed: string[] = [];
    for (const call of calls) {
      const r = await parse(call.words);
      if (r.code !== 0) failed.push(`${call.at}: edp ${call.words.join(' ')}: ${r.stderr.trim().split('\n')[0]}`);
    }
    expect(failed).toEqual([]);
  });

  it('no message spells a command by hand: each is made by suggest()', () => {
    const index = readFileSync('src/commands/index.ts', 'utf8');
    const commands = [...index.matchAll(/^ {2}(?:\[\s*)?'([a-z-]+)',/gm)].map((m) => m[1]!);
    expect(commands).toContain('recipes');
    // Help texts (examples, flag descriptions, the program's help) are the manual's, and shell
    // completion scripts are shell code.
    const exempt = (f: string) =>
      /^src\/commands\/[a-z-]+\/command\.ts$/.test(f) ||
      [join('src', 'commands', 'shared', 'flags.ts'), join('src', 'cli.ts')].includes(f) ||
      f.startsWith(join('src', 'commands', 'completion'));
    // A command named as the author of a file or a heading, not one to run.
    const named = [
      /# edp export, sha256:/,
      /^### edp (plan|freshness)/,
      /(written|wrote|saved) by `edp (export|apply|plan)( --[a-z-]+)?`/g,
      /\(`edp config`\)/g,
      /since `edp export` wrote it/g,
    ];
    expect(files.filter((f) => !exempt(f)).flatMap((f) => handSpelled(f, commands, named))).toEqual([]);
  });
});
