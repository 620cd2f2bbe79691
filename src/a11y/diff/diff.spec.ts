import { fingerprintOf, stripClasses, textHashOf } from './fingerprint';
import { matchNodes } from './diff';

const facts = (path: string, name: string, text = name, tag = 'button') => ({
  path,
  tag,
  name,
  textHash: textHashOf(text),
});

describe('element fingerprints and matching', () => {
  it('the fallback ignores class names and sibling positions', () => {
    expect(stripClasses('div.css-1x2y > p.Foo_bar__a1:nth-child(3)')).toBe('div > p');
    const a = { html: '<p class="css-1">Hi</p>', target: ['div.css-1 > p.x'] };
    const b = { html: '<p class="css-2">Hi</p>', target: ['div.css-9 > p.y'] };
    expect(fingerprintOf('color-contrast', a)).toBe(fingerprintOf('color-contrast', b));
    expect(fingerprintOf('color-contrast', a)).not.toBe(fingerprintOf('link-name', a));
  });

  it('pairs identical elements as multisets: one of three removed is one fixed', () => {
    const node = { html: '<button></button>', target: ['button'], facts: facts('html>body>ul>li>button', '') };
    const m = matchNodes('button-name', [node, node, node], [node, node]);
    expect([m.new.length, m.fixed.length, m.still.length]).toEqual([0, 1, 2]);
  });

  it('an element that moved (new wrapper) with the same name and text is still there; a renamed one is fixed + new', () => {
    const before = {
      html: '<a>x</a>',
      target: ['a'],
      facts: facts('html>body>main>a', 'Read more about pricing', 'Read more about pricing', 'a'),
    };
    const moved = {
      ...before,
      facts: facts('html>body>main>div>a', 'Read more about pricing', 'Read more about pricing', 'a'),
    };
    expect(matchNodes('link-name', [before], [moved])).toMatchObject({ new: [], fixed: [], still: [{}] });
    const renamed = { ...before, facts: facts('html>body>main>a', 'Pricing', 'Pricing', 'a') };
    const m = matchNodes('link-name', [before], [renamed]);
    expect([m.new.length, m.fixed.length, m.still.length]).toEqual([1, 1, 0]);
  });
});
