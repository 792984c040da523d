/** What kind of problem a folder has; stable, for callers that act on some kinds only. */
export type ProblemCode =
  | 'front-matter'
  | 'summary-syntax'
  | 'summary-missing'
  | 'missing-file'
  | 'listed-twice'
  | 'not-in-summary'
  | 'duplicate-slug'
  | 'duplicate-path'
  | 'missing-asset'
  | 'gitbook-yaml'
  | 'vars'
  | 'include'
  | 'unrepresentable';

/**
 * Something wrong in a folder, as a value: reading and writing never throw on bad input, they
 * report every problem and let the caller decide whether to stop.
 */
export interface WorkspaceProblem {
  code: ProblemCode;
  /** File the problem is in, relative to the folder. */
  file: string;
  /** 1-based line, when the problem has one. */
  line?: number;
  message: string;
}

export function problem(code: ProblemCode, file: string, line: number | undefined, message: string): WorkspaceProblem {
  return line === undefined ? { code, file, message } : { code, file, line, message };
}

/** `guides/install.md:3: front matter ...`: the one-line form for people. */
export function formatProblem(p: WorkspaceProblem): string {
  return `${p.file}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}`;
}
