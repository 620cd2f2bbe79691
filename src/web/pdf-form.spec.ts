import { PDF_TOOLS_BY_NAME } from '../pdf-tools/tools';
import { optionArgs, optionFields, renderOption, webError } from './pdf-form';

describe('PDF tool forms from the tools\' input schemas', () => {
  it('offers every argument but the files, and nested metadata fields', () => {
    expect(optionFields(PDF_TOOLS_BY_NAME.get('rotate_pages')!).map((f) => f.path.join('.'))).toEqual(['angle', 'pages']);
    const meta = optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!).map((f) => f.path.join('.'));
    expect(meta).toContain('set.title');
    expect(meta).not.toContain('set.custom');
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
    expect(hint).toContain('e.g. &quot;1-3, 4-, odd&quot;. Separate entries with commas.');
    expect(hint).not.toContain('[');
    const mode = renderOption(fields.find((f) => f.path[0] === 'mode')!, {}, fields).value;
    expect(mode).toContain('one document per entry of &quot;Ranges&quot;');
    expect(mode).not.toContain('`');
    // The split tool's own message (src/pdf-tools), as the web form's error, linked to the field.
    expect(webError('mode "ranges" needs `ranges`, e.g. ["1-3", "4-"].', fields)).toEqual({
      message: 'Mode "ranges" needs "Ranges", e.g. "1-3, 4-".',
      field: 'opt-ranges',
    });
    // The tool runner's validation messages start with the argument's path.
    expect(webError('count: Too small: expected number to be >=2', fields)).toEqual({ message: 'Count: Too small: expected number to be >=2', field: 'opt-count' });
    // Text that names no form field is left as it is.
    expect(webError('The file is encrypted.', fields)).toEqual({ message: 'The file is encrypted.', field: undefined });
  });
});
