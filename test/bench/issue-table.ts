// One table per issue at the end of a bench run: each part of the bench that measures one of the
// issue's figures records it here as it prints its own lines, and run.ts prints the issue's table
// last, so every figure of issue 23 stands in one place with its target and its same-run baseline.

export interface IssueFigure {
  /** What is measured. */
  figure: string;
  /** The small side or the baseline, as printed. */
  baseline: string;
  /** The measured side, as printed. */
  measured: string;
  /** measured against baseline, or '' where there is no ratio. */
  ratio: string;
  /** The issue's target, or '' for a figure reported without one. */
  target: string;
}

const figures = new Map<number, IssueFigure[]>();

export function recordFigure(issue: number, figure: IssueFigure): void {
  figures.set(issue, [...(figures.get(issue) ?? []), figure]);
}

/** The figures recorded for `issue` as one markdown table (nothing when none was measured in this run). */
export function printIssueTable(issue: number, title: string): void {
  const rows = figures.get(issue) ?? [];
  if (rows.length === 0) return;
  console.log(`\nissue ${issue}: ${title}, every figure of this run`);
  console.log('  | figure | baseline (same run) | measured | ratio | target |');
  console.log('  |---|---|---|---|---|');
  for (const r of rows) console.log(`  | ${r.figure} | ${r.baseline} | ${r.measured} | ${r.ratio} | ${r.target} |`);
}
