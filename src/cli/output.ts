/** How a command reports its result: one line for people, or one JSON document for machines. */
export interface OutputOptions {
  json?: boolean;
}

/** Prints a command's result: `human` as one line, or `data` as one line of JSON with `--json`. */
export function printResult(options: OutputOptions, human: string, data: unknown): void {
  console.log(options.json ? JSON.stringify(data) : human);
}

/**
 * Prints rows, one line each, or `empty` when there are none (silence would look like a hang or a
 * failure); with `--json`, the rows as one JSON array.
 */
export function printRows<T>(options: OutputOptions, rows: readonly T[], line: (row: T) => string, empty: string): void {
  if (options.json) {
    console.log(JSON.stringify(rows));
    return;
  }
  if (rows.length === 0) console.log(empty);
  for (const row of rows) console.log(line(row));
}
