import type { RenderOptions, RenderProblem, RenderSite, SitePage } from './types.js';

/** What every step of rendering one page shares. */
export interface RenderContext {
  site: RenderSite;
  page: SitePage;
  /** The page's file: where its problems are and what its relative links start from. */
  file: string;
  options: RenderOptions;
  problems: RenderProblem[];
}

export function report(ctx: RenderContext, file: string, line: number | undefined, message: string): void {
  ctx.problems.push({ file, line: line ?? 1, message });
}
