import { PDF_TOOLS_BY_NAME } from '../pdf-tools/tools';
import { PAGE_RANGE_GRAMMAR } from '../pdf-tools/core/page-range';
import { optionArgs, optionFields, optionValues, renderOption, webError } from './pdf-form';

describe('PDF tool forms from the tools\' input schemas', () => {
  it('offers every argument but the files, and nested metadata fields', () => {
    expect(optionFields(PDF_TOOLS_BY_NAME.get('rotate_pages')!).map((f) => f.path.join('.'))).toEqual(['angle', 'pages']);
    const meta = optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!).map((f) => f.path.join('.'));
    expect(meta).toContain('set.title');
    expect(meta).not.toContain('set.custom');
    expect(renderOption(optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!).find((f) => f.path.join('.') === 'set.title')!, {}).value).toContain('New title');
    expect(optionFields(PDF_TOOLS_BY_NAME.get('add_watermark')!).map((f) => f.path[0])).not.toContain('image_base64');
  });

  it('turns form values into arguments the tool validates (numbers, choices, lists, nesting)', () => {
    const split = PDF_TOOLS_BY_NAME.get('split_pdf')!;
    expect(optionArgs(optionFields(split), { 'opt.mode': 'ranges', 'opt.ranges': '1-2, 3-', 'opt.every': '' })).toEqual({ mode: 'ranges', ranges: ['1-2', '3-'] });
    const rotate = PDF_TOOLS_BY_NAME.get('rotate_pages')!;
    const args = optionArgs(optionFields(rotate), { 'opt.angle': '90' });
    expect(args).toEqual({ angle: 90 });
    expect(rotate.input.safeParse({ ...args, file: { base64: 'JVBER' } }).success).toBe(true);
    const meta = PDF_TOOLS_BY_NAME.get('pdf_metadata')!;
    expect(optionArgs(optionFields(meta), { 'opt.set.title': 'Report', 'opt.set.keywords': 'a,b' })).toEqual({ set: { title: 'Report', keywords: ['a', 'b'] } });
    const merge = PDF_TOOLS_BY_NAME.get('merge_pdfs')!;
    expect(optionArgs(optionFields(merge), { 'opt.keep_bookmarks': 'false' })).toEqual({ keep_bookmarks: false });
  });

  it('speaks of what the form takes, not of MCP\'s JSON: hints and errors with comma-separated text and field labels', () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('split_pdf')!);
    const ranges = fields.find((f) => f.path[0] === 'ranges')!;
    const hint = renderOption(ranges, {}, fields).value;
    expect(hint).toContain('separated by commas; e.g. &quot;1-3, 4-10, 11-last&quot; makes three documents.');
    expect(hint).not.toContain('[');
    const mode = renderOption(fields.find((f) => f.path[0] === 'mode')!, {}, fields).value;
    expect(mode).toContain('<option value="ranges">By page ranges</option>');
    expect(mode).not.toContain('`');
    // The split tool's own message (src/pdf-tools), as the web form's error, linked to the field.
    expect(webError('mode "ranges" needs `ranges`, e.g. ["1-3", "4-"].', fields)).toEqual({
      message: 'Mode "ranges" needs "Page ranges", e.g. "1-3, 4-".',
      field: 'opt-ranges',
    });
    // The tool runner's validation messages start with the argument's path.
    expect(webError('count: Too small: expected number to be >=2', fields)).toEqual({ message: 'Number of documents: Too small: expected number to be >=2', field: 'opt-count' });
    // Text that names no form field is left as it is.
    expect(webError('The file is encrypted.', fields)).toEqual({ message: 'The file is encrypted.', field: undefined });
  });

  it('writes page ranges as examples, not grammar, in hints and errors', () => {
    for (const name of ['rotate_pages', 'remove_pages', 'add_watermark', 'add_page_numbers']) {
      const fields = optionFields(PDF_TOOLS_BY_NAME.get(name)!);
      const pages = renderOption(fields.find((f) => f.path[0] === 'pages')!, {}, fields).value;
      expect(pages).toContain('&quot;1-3, 7, 10-last&quot;');
      expect(pages).not.toMatch(/N-M|&quot;-M&quot;|N-last/);
    }
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('rotate_pages')!);
    const message = webError(`Cannot read "x" in page range "x". ${PAGE_RANGE_GRAMMAR}`, fields).message;
    expect(message).toBe('Cannot read "x" in page range "x". For example "1-3, 7, 10-last", "odd", "even" or "all".');
  });

  it('offers the watermark as text only (no image scale), with a checkbox for tiled', () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('add_watermark')!);
    expect(fields.map((f) => f.path[0])).not.toContain('image_scale');
    const text = fields.find((f) => f.path[0] === 'text')!;
    expect(text.required).toBe(true);
    expect(renderOption(text, {}, fields).value).not.toContain('image_base64');
    const tiled = renderOption(fields.find((f) => f.path[0] === 'tiled')!, {}, fields).value;
    expect(tiled).toContain('<input type="hidden" name="opt.tiled" value="false"><input type="checkbox" id="opt-tiled" name="opt.tiled" value="true"');
    expect(tiled).not.toContain('<select');
    // Unticked: only the hidden "false"; ticked: "false" then "true" (the last one counts).
    expect(optionArgs(fields, { 'opt.text': 'Draft', 'opt.tiled': 'false' })).toEqual({ text: 'Draft', tiled: false });
    expect(optionArgs(fields, { 'opt.text': 'Draft', 'opt.tiled': ['false', 'true'] })).toEqual({ text: 'Draft', tiled: true });
    expect(optionValues(fields, { 'opt.tiled': ['false', 'true'] })['opt.tiled']).toBe('true');
  });

  it('split: each of ranges, every and count is shown for its mode, says when it is needed, and only the one of the chosen mode is sent', () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('split_pdf')!);
    for (const [name, mode] of [['ranges', 'ranges'], ['every', 'every'], ['count', 'count']]) {
      const field = renderOption(fields.find((f) => f.path[0] === name)!, {}, fields).value;
      expect(field).toContain(`data-when="opt-mode" data-when-value="${mode}"`);
      expect(field).not.toContain('(optional)');
      expect(field).toContain('Needed when splitting');
    }
    expect(optionArgs(fields, { 'opt.mode': 'every', 'opt.ranges': '1-2', 'opt.every': '2' })).toEqual({ mode: 'every', every: 2 });
  });
});
