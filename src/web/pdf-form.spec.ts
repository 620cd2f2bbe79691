import { PDF_TOOLS_BY_NAME } from '../pdf-tools/tools';
import { optionArgs, optionFields } from './pdf-form';

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
});
