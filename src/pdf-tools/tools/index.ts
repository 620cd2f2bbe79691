import { addPageNumbersTool } from './add-page-numbers.tool';
import { addWatermarkTool } from './add-watermark.tool';
import { compressPdfTool } from './compress-pdf.tool';
import { flattenFormTool } from './flatten-form.tool';
import { mergePdfsTool } from './merge-pdfs.tool';
import { pdfMetadataTool } from './pdf-metadata.tool';
import { readPdfTool } from './read-pdf.tool';
import { removePagesTool } from './remove-pages.tool';
import { rotatePagesTool } from './rotate-pages.tool';
import { splitPdfTool } from './split-pdf.tool';
import type { PdfTool } from './tool';

/** The ten tools, in the order tools/list shows them: the nine that make files, then read_pdf. */
export const PDF_TOOLS: readonly PdfTool[] = [
  mergePdfsTool,
  splitPdfTool,
  rotatePagesTool,
  removePagesTool,
  compressPdfTool,
  addWatermarkTool,
  addPageNumbersTool,
  pdfMetadataTool,
  flattenFormTool,
  readPdfTool,
];

export const PDF_TOOLS_BY_NAME: ReadonlyMap<string, PdfTool> = new Map(PDF_TOOLS.map((t) => [t.name, t]));
