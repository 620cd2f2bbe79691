import { PDF_TOOLS_BY_NAME } from '../pdf-tools/tools';
import { PAGE_RANGE_GRAMMAR } from '../pdf-tools/core/page-range';
import { describeIssues } from '../pdf-tools/tools/argument-errors';
import {
  formError,
  optionArgs,
  optionFields,
  optionValues,
  pageRangeError,
  renderOption,
  validationError,
  webError,
} from './pdf-form';

/** A file_id of the right shape (the runner looks it up later). */
const ID = 'A'.repeat(43);

describe("PDF tool forms from the tools' input schemas", () => {
  it('offers every argument but the files, and nested metadata fields', () => {
    expect(optionFields(PDF_TOOLS_BY_NAME.get('rotate_pages')!).map((f) => f.path.join('.'))).toEqual([
      'angle',
      'pages',
    ]);
    const meta = optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!).map((f) => f.path.join('.'));
    expect(meta).toContain('set.title');
    expect(meta).not.toContain('set.custom');
    expect(
      renderOption(
        optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!).find((f) => f.path.join('.') === 'set.title')!,
        {},
      ).value,
    ).toContain('New title');
    expect(optionFields(PDF_TOOLS_BY_NAME.get('add_watermark')!).map((f) => f.path[0])).not.toContain('image_base64');
  });

  it('turns form values into arguments the tool validates (numbers, choices, lists, nesting)', () => {
    const split = PDF_TOOLS_BY_NAME.get('split_pdf')!;
    expect(optionArgs(optionFields(split), { 'opt.mode': 'ranges', 'opt.ranges': '1-2, 3-', 'opt.every': '' })).toEqual(
      { mode: 'ranges', ranges: ['1-2', '3-'] },
    );
    const rotate = PDF_TOOLS_BY_NAME.get('rotate_pages')!;
    const args = optionArgs(optionFields(rotate), { 'opt.angle': '90' });
    expect(args).toEqual({ angle: 90 });
    expect(rotate.input.safeParse({ ...args, file: { base64: 'JVBER' } }).success).toBe(true);
    const meta = PDF_TOOLS_BY_NAME.get('pdf_metadata')!;
    expect(optionArgs(optionFields(meta), { 'opt.set.title': 'Report', 'opt.set.keywords': 'a,b' })).toEqual({
      set: { title: 'Report', keywords: ['a', 'b'] },
    });
    const merge = PDF_TOOLS_BY_NAME.get('merge_pdfs')!;
    expect(optionArgs(optionFields(merge), { 'opt.keep_bookmarks': 'false' })).toEqual({ keep_bookmarks: false });
  });

  it("speaks of what the form takes, not of MCP's JSON: hints and errors with comma-separated text and field labels", () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('split_pdf')!);
    const ranges = fields.find((f) => f.path[0] === 'ranges')!;
    const hint = renderOption(ranges, {}, fields).value;
    expect(hint).toContain('separated by commas; e.g. &quot;1-3, 4-10, 11-last&quot; makes three documents.');
    expect(hint).not.toContain('[');
    const mode = renderOption(
      fields.find((f) => f.path[0] === 'mode')!,
      {},
      fields,
    ).value;
    expect(mode).toContain('<option value="ranges">By page ranges</option>');
    expect(mode).not.toContain('`');
    // The split tool's own message (src/pdf-tools), as the web form's error, linked to the field.
    expect(webError('mode "ranges" needs `ranges`, e.g. ["1-3", "4-"].', fields)).toEqual({
      message: 'Mode "ranges" needs "Page ranges", e.g. "1-3, 4-".',
      field: 'opt-ranges',
    });
    // The tool runner's validation messages start with the argument's path.
    expect(webError('count: Too small: expected number to be >=2', fields)).toEqual({
      message: 'Number of documents: Too small: expected number to be >=2',
      field: 'opt-count',
    });
    // Text that names no form field is left as it is.
    expect(webError('The file is encrypted.', fields)).toEqual({ message: 'The file is encrypted.', field: undefined });
  });

  it('writes page ranges as examples, not grammar, in hints and errors', () => {
    for (const name of ['rotate_pages', 'remove_pages', 'add_watermark', 'add_page_numbers']) {
      const fields = optionFields(PDF_TOOLS_BY_NAME.get(name)!);
      const pages = renderOption(
        fields.find((f) => f.path[0] === 'pages')!,
        {},
        fields,
      ).value;
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
    const tiled = renderOption(
      fields.find((f) => f.path[0] === 'tiled')!,
      {},
      fields,
    ).value;
    expect(tiled).toContain(
      '<input type="hidden" name="opt.tiled" value="false"><input type="checkbox" id="opt-tiled" name="opt.tiled" value="true"',
    );
    expect(tiled).not.toContain('<select');
    // Unticked: only the hidden "false"; ticked: "false" then "true" (the last one counts).
    expect(optionArgs(fields, { 'opt.text': 'Draft', 'opt.tiled': 'false' })).toEqual({ text: 'Draft', tiled: false });
    expect(optionArgs(fields, { 'opt.text': 'Draft', 'opt.tiled': ['false', 'true'] })).toEqual({
      text: 'Draft',
      tiled: true,
    });
    expect(optionValues(fields, { 'opt.tiled': ['false', 'true'] })['opt.tiled']).toBe('true');
  });

  it('split: each of ranges, every and count is shown for its mode, says when it is needed, and only the one of the chosen mode is sent', () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('split_pdf')!);
    for (const [name, mode] of [
      ['ranges', 'ranges'],
      ['every', 'every'],
      ['count', 'count'],
    ]) {
      const field = renderOption(
        fields.find((f) => f.path[0] === name)!,
        {},
        fields,
      ).value;
      expect(field).toContain(`data-when="opt-mode" data-when-value="${mode}"`);
      expect(field).not.toContain('(optional)');
      expect(field).toContain('Needed when splitting');
    }
    expect(optionArgs(fields, { 'opt.mode': 'every', 'opt.ranges': '1-2', 'opt.every': '2' })).toEqual({
      mode: 'every',
      every: 2,
    });
  });

  it("reads argument problems from the tool's schema (typed issues) in the page's words, while MCP keeps its message", () => {
    const merge = PDF_TOOLS_BY_NAME.get('merge_pdfs')!;
    const one = { files: [{ file_id: ID }] };
    expect(validationError(merge, optionFields(merge), one)).toEqual({
      message: 'Choose at least two PDFs to merge.',
      field: 'file',
    });
    const parsed = merge.input.safeParse(one);
    expect(parsed.success ? '' : describeIssues(parsed.error)).toBe(
      'files: Too small: expected array to have >=2 items',
    );

    const wm = PDF_TOOLS_BY_NAME.get('add_watermark')!;
    const fields = optionFields(wm);
    const args = (body: Record<string, string>): Record<string, unknown> => ({
      ...optionArgs(fields, { 'opt.text': 'Draft', ...body }),
      file: { file_id: ID },
    });
    // Opacity is a percentage on the form: 150 % is out of range, 50 % reaches the tool as 0.5.
    expect(validationError(wm, fields, args({ 'opt.opacity': '150' }))).toEqual({
      message: 'Opacity must be between 5 and 100 %.',
      field: 'opt-opacity',
    });
    expect(args({ 'opt.opacity': '50' }).opacity).toBe(0.5);
    expect(validationError(wm, fields, args({ 'opt.opacity': '50' }))).toBeUndefined();
    expect(validationError(wm, fields, args({ 'opt.font_size': 'big' }))).toEqual({
      message: 'Font size must be between 4 and 300.',
      field: 'opt-font_size',
    });
    const split = PDF_TOOLS_BY_NAME.get('split_pdf')!;
    expect(validationError(split, optionFields(split), { file: { file_id: ID }, mode: 'count', count: 1 })).toEqual({
      message: 'Number of documents must be a whole number between 2 and 200.',
      field: 'opt-count',
    });
    const meta = PDF_TOOLS_BY_NAME.get('pdf_metadata')!;
    const metaFields = optionFields(meta);
    expect(
      validationError(meta, metaFields, {
        file: { file_id: ID },
        ...optionArgs(metaFields, { 'opt.set.creation_date': 'yesterday' }),
      }),
    ).toEqual({
      message: 'New creation date (UTC) must be a date and a time of day.',
      field: 'opt-set-creation_date',
    });
    expect(
      validationError(meta, metaFields, {
        file: { file_id: ID },
        ...optionArgs(metaFields, { 'opt.set.title': 'x'.repeat(1001) }),
      }),
    ).toEqual({
      message: 'New title is too long: at most 1000 characters.',
      field: 'opt-set-title',
    });
    for (const body of [{ 'opt.opacity': '150' }, { 'opt.font_size': 'big' }] as Record<string, string>[])
      expect(validationError(wm, fields, args(body))?.message).not.toMatch(/Too big|expected|add_watermark|opacity:/);
  });

  it('shows colours with a picker, opacity in per cent, positions in words and dates as a date-time field (sent to the tool as ISO 8601)', () => {
    const fields = optionFields(PDF_TOOLS_BY_NAME.get('add_watermark')!);
    const field = (name: string) =>
      renderOption(
        fields.find((f) => f.path[0] === name)!,
        {},
        fields,
      ).value;
    expect(field('color')).toContain('<input type="color" id="opt-color" name="opt.color" value="#808080"');
    expect(field('color')).toContain(
      '<label for="opt-color-code">Colour code</label> <input type="text" id="opt-color-code"',
    );
    expect(field('opacity')).toContain('value="30" min="5" max="100"');
    expect(field('position')).toContain('<option value="bottom-right">Bottom right</option>');
    expect(field('position')).toContain('<option value="center" selected>Centre</option>');
    expect(formError(fields, { 'opt.text': 'Draft', 'opt.color': 'grey' })).toEqual({
      message: 'Colour must be a colour code such as #808080, or pick the colour.',
      field: 'opt-color',
    });
    expect(formError(fields, { 'opt.text': '' })).toEqual({ message: 'Fill in "Text".', field: 'opt-text' });
    expect(formError(fields, { 'opt.text': 'Draft', 'opt.color': '#FF0000' })).toBeUndefined();
    const numbers = optionFields(PDF_TOOLS_BY_NAME.get('add_page_numbers')!);
    expect(
      renderOption(
        numbers.find((f) => f.path[0] === 'position')!,
        {},
        numbers,
      ).value,
    ).toContain('<option value="bottom-center" selected>Bottom centre</option>');
    const meta = optionFields(PDF_TOOLS_BY_NAME.get('pdf_metadata')!);
    expect(
      renderOption(
        meta.find((f) => f.path.join('.') === 'set.creation_date')!,
        {},
        meta,
      ).value,
    ).toContain('<input type="datetime-local" id="opt-set-creation_date"');
    expect(optionArgs(meta, { 'opt.set.creation_date': '2024-05-01T12:00' })).toEqual({
      set: { creation_date: '2024-05-01T12:00:00Z' },
    });
    expect(optionArgs(meta, { 'opt.set.creation_date': '2024-05-01T12:00:30' })).toEqual({
      set: { creation_date: '2024-05-01T12:00:30Z' },
    });
  });

  it('checks page ranges against the file: a reversed range is refused (write "3-5"), pages it lacks, entries it cannot read', () => {
    const rotate = optionFields(PDF_TOOLS_BY_NAME.get('rotate_pages')!).find((f) => f.path[0] === 'pages')!;
    const ranges = optionFields(PDF_TOOLS_BY_NAME.get('split_pdf')!).find((f) => f.path[0] === 'ranges')!;
    expect(pageRangeError(ranges, '1-2, 5-3', 6, 'six.pdf', true)).toEqual({
      message: 'The range "5-3" in "Page ranges" runs backwards: write its lower page first, "3-5".',
      field: 'opt-ranges',
    });
    expect(pageRangeError(rotate, 'last-2', 6, 'six.pdf')?.message).toBe(
      'The range "last-2" in "Pages" runs backwards: write its lower page first, "2-last".',
    );
    expect(pageRangeError(rotate, '2-9', 6, 'six.pdf')?.message).toBe('There is no page 9 in six.pdf: it has 6 pages.');
    expect(pageRangeError(rotate, '0', null, 'locked.pdf')?.message).toBe('There is no page 0 in locked.pdf.');
    expect(pageRangeError(rotate, 'x', 6, 'six.pdf')?.message).toBe(
      '"x" in "Pages" is not a page or a range of pages. For example "1-3, 7, 10-last", "odd", "even" or "all".',
    );
    expect(pageRangeError(rotate, '1,,2', 6, 'six.pdf')?.message).toMatch(/^An empty entry in "Pages" is not a page/);
    expect(pageRangeError(rotate, 'even', 1, 'one.pdf')?.message).toBe(
      '"even" selects no page of one.pdf, which has 1 page.',
    );
    expect(pageRangeError(ranges, '1, even', 1, 'one.pdf', true)?.message).toBe(
      '"even" selects no page of one.pdf, which has 1 page.',
    );
    for (const ok of ['3-5', '1-3, 7, 10-last', 'odd', 'all', '4-', '-3', '5-5'])
      expect(pageRangeError(rotate, ok, 12, 'doc.pdf')).toBeUndefined();
  });
});
