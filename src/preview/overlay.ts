import { escapeHtml } from '../render/index.js';

/** A problem as the overlay and the terminal show it: `file:line: message`. */
export interface PreviewProblem {
  file: string;
  line?: number;
  message: string;
}

export const problemLine = (p: PreviewProblem) => `${p.file}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}`;

const STYLE =
  'position:fixed;right:1rem;bottom:1rem;z-index:20;max-width:min(40rem,calc(100vw - 2rem));max-height:40vh;overflow:auto;background:#fff8f0;color:#5c2b00;border:2px solid #d1570f;border-radius:8px;padding:.6rem 1rem;font:13px/1.5 ui-monospace,monospace;box-shadow:0 8px 24px #0004';

/** The overlay listing the problems of the page and of the folder; empty when there are none. */
export function overlayHtml(problems: readonly PreviewProblem[]): string {
  if (problems.length === 0) return '<div id="docsync-problems" hidden></div>';
  const shown = problems.slice(0, 50);
  const items = shown.map((p) => `<li>${escapeHtml(problemLine(p))}</li>`).join('');
  const more = problems.length > shown.length ? `<li>… and ${problems.length - shown.length} more</li>` : '';
  return `<div id="docsync-problems" role="alert" style="${STYLE}"><details open><summary><strong>${problems.length} problem${problems.length === 1 ? '' : 's'} in the folder</strong></summary><ul style="margin:.3rem 0;padding-left:1.2rem">${items}${more}</ul></details></div>`;
}
