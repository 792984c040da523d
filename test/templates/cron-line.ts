/** A crontab as cron reads it: schedule lines with five fields, and their commands. */

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'], first: 1 },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], first: 0 },
] as const;

export interface CronEntry {
  fields: string[];
  /** The command field as written (before cron's `%` handling). */
  command: string;
}

/** Schedule lines: neither blank, nor a comment, nor an environment setting (`NAME=value`). */
export function cronEntries(crontab: string): CronEntry[] {
  return crontab
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#') && !/^\s*[A-Za-z_][A-Za-z0-9_]*\s*=/.test(line))
    .map((line) => {
      const match = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.+)$/.exec(line);
      if (!match) throw new Error(`not a schedule line with five fields and a command: ${line}`);
      return { fields: match.slice(1, 6), command: match[6]! };
    });
}

/** What is wrong with five schedule fields, one message per fault; empty when cron takes them. */
export function scheduleProblems(fields: readonly string[]): string[] {
  if (fields.length !== 5) return [`${fields.length} fields, not 5`];
  const problems: string[] = [];
  fields.forEach((field, at) => {
    const spec = FIELDS[at]!;
    const value = (text: string): number | undefined => {
      if (/^\d+$/.test(text)) return Number(text);
      const named = 'names' in spec ? (spec.names as readonly string[]).indexOf(text.toLowerCase()) : -1;
      return named >= 0 && 'first' in spec ? named + spec.first : undefined;
    };
    for (const item of field.split(',')) {
      const match = /^([^/]+)(?:\/(\d+))?$/.exec(item);
      if (!match) {
        problems.push(`${spec.name}: "${item}" is not a value, range or step`);
        continue;
      }
      const [, range, step] = match;
      if (step !== undefined && (Number(step) < 1 || Number(step) > spec.max)) problems.push(`${spec.name}: step ${step} out of range`);
      if (range === '*') continue;
      const [low, high, ...more] = range!.split('-');
      const from = value(low!);
      const to = high === undefined ? from : value(high);
      if (more.length > 0 || from === undefined || to === undefined) problems.push(`${spec.name}: "${range}" is not a value or range`);
      else if (from < spec.min || to > spec.max || from > to) problems.push(`${spec.name}: "${range}" outside ${spec.min}-${spec.max}`);
    }
  });
  return problems;
}

/**
 * The shell command cron runs for a command field: an unescaped `%` would end the command (the
 * rest becomes its standard input), so a template must have none; `\%` is a literal `%`.
 */
export function cronShellCommand(command: string): string {
  if (/(^|[^\\])%/.test(command)) throw new Error(`a bare % in a cron command ends it there: ${command}`);
  return command.replaceAll('\\%', '%');
}
