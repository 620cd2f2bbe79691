import { html, qs, raw } from './html';

describe('html tagged template', () => {
  it('escapes every interpolated value', () => {
    const evil = '<script>alert("x")</script>&\'';
    expect(html`<p title="${evil}">${evil}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('keeps nested templates and lists, drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
    expect(html`${raw('<br>')}`.value).toBe('<br>');
  });

  it('builds query strings of non-empty values', () => {
    expect(qs({ a: 'x y', b: '', c: undefined, d: 2 })).toBe('?a=x+y&d=2');
    expect(qs({})).toBe('');
  });
});
