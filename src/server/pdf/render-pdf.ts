import PDFDocument from 'pdfkit';
import type { TextBlock } from '../../content/index.js';

export interface PdfPage {
  title: string;
  blocks: TextBlock[];
}

/**
 * Characters the standard PDF fonts (WinAnsi) cannot show become `?`, typographic ones their
 * nearest Latin-1 form; embedding a Unicode font is what lifting this would take.
 */
const TYPOGRAPHY: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u2022': '\u00b7',
};
export function winAnsi(text: string): string {
  return text.replace(/[^\t\n\u0020-\u007e\u00a0-\u00ff]/gu, (c) => TYPOGRAPHY[c] ?? '?');
}

const HEADING_SIZE = [18, 15, 13, 12, 11, 11];

/**
 * A PDF of pages: each starts on a new sheet with its title, then its blocks as text (headings,
 * paragraphs, list items indented by depth, code in a monospaced font, quotes in italics).
 * `createdAt` is written as the creation date so equal content gives equal bytes.
 */
export function renderPdf(title: string, pages: readonly PdfPage[], createdAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: winAnsi(title), Producer: 'docsync', Creator: 'docsync', CreationDate: createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  pages.forEach((page, i) => {
    if (i > 0) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(22).text(winAnsi(page.title)).moveDown(0.5);
    for (const block of page.blocks) writeBlock(doc, block);
  });
  if (pages.length === 0) doc.font('Helvetica').fontSize(11).text('(no pages)');
  doc.end();
  return done;
}

function writeBlock(doc: PDFKit.PDFDocument, block: TextBlock): void {
  const left = doc.page.margins.left;
  switch (block.kind) {
    case 'heading':
      doc
        .moveDown(0.4)
        .font('Helvetica-Bold')
        .fontSize(HEADING_SIZE[block.depth - 1] ?? 11)
        .text(winAnsi(block.text), left)
        .moveDown(0.2);
      return;
    case 'paragraph':
      doc.font('Helvetica').fontSize(11).text(winAnsi(block.text), left).moveDown(0.4);
      return;
    case 'item':
      doc
        .font('Helvetica')
        .fontSize(11)
        .text(`${winAnsi(block.marker)} ${winAnsi(block.text)}`, left + 14 * (block.depth + 1))
        .moveDown(0.15);
      return;
    case 'code':
      doc
        .font('Courier')
        .fontSize(9.5)
        .text(winAnsi(block.text), left + 10)
        .moveDown(0.4);
      return;
    case 'quote':
      doc
        .font('Helvetica-Oblique')
        .fontSize(11)
        .text(winAnsi(block.text), left + 14)
        .moveDown(0.4);
      return;
    case 'rule': {
      const y = doc.y + 4;
      doc
        .moveTo(left, y)
        .lineTo(doc.page.width - doc.page.margins.right, y)
        .stroke()
        .moveDown(0.6);
      return;
    }
    default: {
      const never: never = block;
      throw new Error(`unknown text block ${JSON.stringify(never)}`);
    }
  }
}
