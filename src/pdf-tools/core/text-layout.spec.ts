import { bodySize, pageMarkdown, TextRun } from './text-layout';

/** A run of Helvetica-like text: 0.5 em per character. */
const run = (text: string, x: number, y: number, size = 10): TextRun => ({
  text,
  x,
  y,
  size,
  width: text.length * size * 0.5,
});

describe('pageMarkdown', () => {
  it('makes paragraphs of lines, headings of larger text, and joins words broken at a line end', () => {
    const md = pageMarkdown([
      run('Annual report', 72, 780, 24),
      run('Summary', 72, 740, 14),
      run('The first paragraph starts here and con-', 72, 720),
      run('tinues on the next line.', 72, 708),
      run('A second paragraph after a gap.', 72, 680),
    ]);
    expect(md).toBe(
      '# Annual report\n\n## Summary\n\nThe first paragraph starts here and continues on the next line.\n\nA second paragraph after a gap.',
    );
  });

  it('reads two columns one after the other, under a title across both', () => {
    const runs = [run('Two columns of text on one page', 72, 780, 20)];
    for (let i = 0; i < 8; i++) {
      runs.push(run(`Left column line number ${i + 1} here`, 72, 740 - i * 12));
      runs.push(run(`Right column line number ${i + 1} here`, 320, 740 - i * 12));
    }
    const md = pageMarkdown(runs);
    const left = md.indexOf('Left column line number 8');
    const right = md.indexOf('Right column line number 1 ');
    expect(md.startsWith('# Two columns of text on one page')).toBe(true);
    expect(left).toBeGreaterThan(0);
    expect(right).toBeGreaterThan(left);
    expect(md).not.toMatch(/Left[^\n]*Right|Right[^\n]*Left/);
  });

  it('writes a plain grid as a Markdown table, and not as columns', () => {
    const rows = [
      ['Country', 'Capital', 'People'],
      ['France', 'Paris', '68 M'],
      ['Germany', 'Berlin', '84 M'],
      ['Spain', 'Madrid', '48 M'],
    ];
    const runs = rows.flatMap((r, i) => r.map((c, j) => run(c, 72 + j * 150, 700 - i * 14)));
    expect(pageMarkdown([run('Capitals', 72, 740, 16), ...runs])).toBe(
      '# Capitals\n\n| Country | Capital | People |\n| --- | --- | --- |\n| France | Paris | 68 M |\n| Germany | Berlin | 84 M |\n| Spain | Madrid | 48 M |',
    );
  });

  it('makes list items of bullets and numbers, one per line', () => {
    const md = pageMarkdown([
      run('• first point', 72, 700),
      run('• second point that goes on', 72, 688),
      run('and on', 82, 676),
      run('2) numbered', 72, 664),
    ]);
    expect(md).toBe('- first point\n- second point that goes on and on\n2. numbered');
  });

  it('fences lines of code (a monospaced font), never as a table; table-of-contents lines stand alone, their leaders shortened', () => {
    const code = (text: string, x: number, y: number): TextRun => ({ ...run(text, x, y), mono: true });
    expect(
      pageMarkdown([
        run('For example:', 72, 700),
        code('SEQUENCE {', 72, 688),
        code('r', 90, 676),
        code('INTEGER,', 140, 676),
        code('s', 90, 664),
        code('INTEGER', 140, 664),
        code('}', 72, 652),
      ]),
    ).toBe('For example:\n\n```\nSEQUENCE {\nr INTEGER,\ns INTEGER\n}\n```');
    // A contents line: the section's number, then its title with dot leaders to the page number.
    const contents = (n: string, title: string, y: number): TextRun[] => [run(n, 72, y), run(title, 90, y)];
    expect(
      pageMarkdown([
        ...contents('1', 'Introduction . . . . . . . . 1', 700),
        ...contents('2', 'Usage . . . . . . . . . . . . 2', 688),
      ]),
    ).toBe('1 Introduction … 1\n2 Usage … 2');
  });

  it('keeps text that looks like markup as text, spaces runs of one line, and gives nothing for a page without text', () => {
    expect(pageMarkdown([run('# not a heading', 72, 700), run('but', 72, 688), run('text', 92, 688)])).toBe(
      '\\# not a heading but text',
    );
    expect(pageMarkdown([])).toBe('');
    expect(bodySize([run('a', 0, 0, 9), run('longer text', 0, 10, 11)])).toBe(11);
  });
});
