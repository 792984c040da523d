import { COMPARE_OPERATORS, ConditionSyntaxError } from './ast.js';

export type Token =
  | { kind: 'name'; value: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'punct'; value: string; at: number }
  | { kind: 'end'; at: number };

const PUNCTUATION = [...COMPARE_OPERATORS, '&&', '||', '!', '(', ')', '.', '[', ']'];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };

/** Splits a condition into tokens; the longest operator wins (`!==` before `!=` before `!`). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (/[A-Za-z_$]/.test(c)) {
      const match = /^[A-Za-z0-9_$]+/.exec(text.slice(i))![0];
      tokens.push({ kind: 'name', value: match, at: i });
      i += match.length;
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i))![0];
      if (/[A-Za-z_$.]/.test(text[i + match.length] ?? '')) throw new ConditionSyntaxError('malformed number', i);
      tokens.push({ kind: 'number', value: Number(match), at: i });
      i += match.length;
    } else if (c === '"' || c === "'") {
      const start = i;
      let value = '';
      i += 1;
      for (;;) {
        const ch = text[i];
        if (ch === undefined) throw new ConditionSyntaxError('unterminated string', start);
        i += 1;
        if (ch === c) break;
        if (ch === '\\') {
          const escaped = text[i];
          const replacement = escaped === undefined ? undefined : ESCAPES[escaped];
          if (replacement === undefined) throw new ConditionSyntaxError('unknown escape in string', i - 1);
          value += replacement;
          i += 1;
        } else {
          value += ch;
        }
      }
      tokens.push({ kind: 'string', value, at: start });
    } else {
      const op = PUNCTUATION.find((p) => text.startsWith(p, i));
      if (!op) throw new ConditionSyntaxError(`unexpected character ${JSON.stringify(c)}`, i);
      tokens.push({ kind: 'punct', value: op, at: i });
      i += op.length;
    }
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}
