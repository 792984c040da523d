/**
 * Just enough of the POSIX shell's word splitting to find the `docsync ...` command lines in a
 * template's shell text and give them to the CLI as `argv`: quotes, backslashes, comments,
 * `$NAME`/`${NAME}` (from `vars`, else a stand-in `<NAME>`), `$(...)` and `$?` (stand-ins), and
 * the operators that end a command. It is not a shell: text it cannot read throws, so a template
 * that outgrows it fails its test instead of being read wrong.
 */

interface Word {
  text: string;
  /** Some part was quoted or expanded: such a word is an argument, never the command name. */
  literal: boolean;
}

const OPERATOR = new Set([';', '&', '|', '<', '>', '(', ')', '\n']);

export function shellCommands(script: string, vars: Record<string, string> = {}): string[][] {
  const commands: Word[][] = [[]];
  let i = 0;
  const current = () => commands[commands.length - 1]!;
  const end = () => {
    if (current().length > 0) commands.push([]);
  };

  const expand = (): string => {
    // At a `$`: returns the expansion and leaves i after it.
    const next = script[i + 1];
    if (next === '{') {
      const close = script.indexOf('}', i);
      if (close < 0) throw new Error(`unclosed \${ in: ${script}`);
      const name = script.slice(i + 2, close);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unsupported expansion \${${name}}`);
      i = close + 1;
      return vars[name] ?? `<${name}>`;
    }
    if (next === '(') {
      let depth = 0;
      for (let j = i + 1; j < script.length; j += 1) {
        if (script[j] === '(') depth += 1;
        if (script[j] === ')' && (depth -= 1) === 0) {
          i = j + 1;
          return '<command substitution>';
        }
      }
      throw new Error(`unclosed $( in: ${script}`);
    }
    if (next === '?') {
      i += 2;
      return '<exit status>';
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(script.slice(i + 1))?.[0];
    if (name === undefined) {
      i += 1;
      return '$';
    }
    i += 1 + name.length;
    return vars[name] ?? `<${name}>`;
  };

  while (i < script.length) {
    const c = script[i]!;
    if (c === ' ' || c === '\t') {
      i += 1;
      continue;
    }
    if (c === '\\' && script[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < script.length && script[i] !== '\n') i += 1;
      continue;
    }
    if (OPERATOR.has(c)) {
      end();
      i += 1;
      continue;
    }
    const word: Word = { text: '', literal: false };
    while (i < script.length && !OPERATOR.has(script[i]!) && script[i] !== ' ' && script[i] !== '\t') {
      const ch = script[i]!;
      if (ch === '\\') {
        if (script[i + 1] === '\n') {
          i += 2;
          continue;
        }
        word.text += script[i + 1] ?? '';
        word.literal = true;
        i += 2;
      } else if (ch === "'") {
        const close = script.indexOf("'", i + 1);
        if (close < 0) throw new Error(`unclosed ' in: ${script}`);
        word.text += script.slice(i + 1, close);
        word.literal = true;
        i = close + 1;
      } else if (ch === '"') {
        word.literal = true;
        i += 1;
        while (script[i] !== '"') {
          if (i >= script.length) throw new Error(`unclosed " in: ${script}`);
          if (script[i] === '\\' && '$`"\\\n'.includes(script[i + 1] ?? '')) {
            word.text += script[i + 1];
            i += 2;
          } else if (script[i] === '$') word.text += expand();
          else if (script[i] === '`') throw new Error(`backquotes are not supported: ${script}`);
          else word.text += script[i++];
        }
        i += 1;
      } else if (ch === '$') {
        word.text += expand();
        word.literal = true;
      } else if (ch === '`') {
        throw new Error(`backquotes are not supported: ${script}`);
      } else {
        word.text += ch;
        i += 1;
      }
    }
    current().push(word);
  }
  return commands.filter((c) => c.length > 0).map((c) => c.map((w) => (w.literal ? `\0${w.text}` : w.text)));
}

/**
 * The argument lists of every `docsync` command in a shell text: each runs from an unquoted
 * word `docsync` (the command itself, or the program a wrapper such as `flock LOCK` or
 * `env` runs) to the end of its command.
 */
export function docsyncCommands(script: string, vars: Record<string, string> = {}): string[][] {
  const found: string[][] = [];
  for (const words of shellCommands(script, vars)) {
    const at = words.indexOf('docsync');
    if (at >= 0) found.push(words.slice(at + 1).map((w) => w.replace(/^\0/, '')));
  }
  return found;
}
