import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRef,
  PDFString,
} from 'pdf-lib';

/** A bookmark read from a source document, its destination already pointing into the target. */
export interface OutlineNode {
  title: PDFObject;
  dest?: PDFArray;
  children: OutlineNode[];
}

const MAX_DEPTH = 32;
const MAX_ITEMS = 10_000;

/**
 * Reads the bookmarks of `src` whose destination page was copied (`pageMap`: source page ref ->
 * target page ref). Explicit destinations, GoTo actions and named destinations are followed;
 * a bookmark whose page was left out is dropped and its children move up a level.
 */
export function readOutline(src: PDFDocument, target: PDFDocument, pageMap: Map<string, PDFRef>): OutlineNode[] {
  const outlines = src.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  const first = outlines?.lookupMaybe(PDFName.of('First'), PDFDict);
  const seen = new Set<PDFDict>();
  let budget = MAX_ITEMS;
  const walk = (start: PDFDict | undefined, depth: number): OutlineNode[] => {
    const out: OutlineNode[] = [];
    for (
      let item = start;
      item && !seen.has(item) && budget-- > 0;
      item = item.lookupMaybe(PDFName.of('Next'), PDFDict)
    ) {
      seen.add(item);
      const children = depth < MAX_DEPTH ? walk(item.lookupMaybe(PDFName.of('First'), PDFDict), depth + 1) : [];
      const title = item.lookup(PDFName.of('Title'));
      const dest = mapDest(src, target, destOf(item), pageMap);
      if (dest && (title instanceof PDFString || title instanceof PDFHexString)) out.push({ title, dest, children });
      else out.push(...children);
    }
    return out;
  };
  return walk(first, 0);
}

/** Writes `nodes` as the target's outline (replacing any). */
export function writeOutline(doc: PDFDocument, nodes: OutlineNode[]): void {
  if (nodes.length === 0) return;
  const ctx = doc.context;
  const rootRef = ctx.nextRef();
  const build = (items: OutlineNode[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = items.map(() => ctx.nextRef());
    let count = 0;
    items.forEach((node, i) => {
      const dict = ctx.obj({});
      dict.set(PDFName.of('Title'), node.title);
      dict.set(PDFName.of('Parent'), parent);
      if (node.dest) dict.set(PDFName.of('Dest'), node.dest);
      if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]);
      if (i < items.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]);
      if (node.children.length > 0) {
        const sub = build(node.children, refs[i]);
        dict.set(PDFName.of('First'), sub.first);
        dict.set(PDFName.of('Last'), sub.last);
        dict.set(PDFName.of('Count'), PDFNumber.of(-sub.count)); // closed by default
      }
      ctx.assign(refs[i], dict);
      count += 1;
    });
    return { first: refs[0], last: refs[refs.length - 1], count };
  };
  const top = build(nodes, rootRef);
  ctx.assign(rootRef, ctx.obj({ Type: 'Outlines', First: top.first, Last: top.last, Count: PDFNumber.of(top.count) }));
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
}

function destOf(item: PDFDict): PDFObject | undefined {
  const direct = item.lookup(PDFName.of('Dest'));
  if (direct) return direct;
  const action = item.lookupMaybe(PDFName.of('A'), PDFDict);
  if (action?.lookup(PDFName.of('S')) === PDFName.of('GoTo')) return action.lookup(PDFName.of('D'));
  return undefined;
}

function mapDest(
  src: PDFDocument,
  target: PDFDocument,
  dest: PDFObject | undefined,
  pageMap: Map<string, PDFRef>,
): PDFArray | undefined {
  let resolved = dest;
  if (resolved instanceof PDFName || resolved instanceof PDFString || resolved instanceof PDFHexString) {
    resolved = namedDest(src, resolved);
  }
  if (resolved instanceof PDFDict) resolved = resolved.lookup(PDFName.of('D'));
  if (!(resolved instanceof PDFArray) || resolved.size() === 0) return undefined;
  const page = resolved.get(0);
  if (!(page instanceof PDFRef)) return undefined;
  const mapped = pageMap.get(page.toString());
  if (!mapped) return undefined;
  const out = target.context.obj([]);
  out.push(mapped);
  for (let i = 1; i < resolved.size(); i++) {
    const v = resolved.get(i);
    if (v instanceof PDFName || v instanceof PDFNumber) out.push(v);
    else out.push(target.context.obj(null));
  }
  return out;
}

/** Looks a named destination up in /Dests (PDF 1.1) or the /Names /Dests name tree. */
function namedDest(src: PDFDocument, name: PDFObject): PDFObject | undefined {
  const key = name instanceof PDFName ? name.decodeText() : (name as PDFString | PDFHexString).decodeText();
  const old = src.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  if (old) {
    const v = old.lookup(PDFName.of(key));
    if (v) return v;
  }
  const tree = src.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('Dests'), PDFDict);
  const search = (node: PDFDict | undefined, depth: number): PDFObject | undefined => {
    if (!node || depth > MAX_DEPTH) return undefined;
    const names = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    if (names) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const k = names.lookup(i);
        if ((k instanceof PDFString || k instanceof PDFHexString) && k.decodeText() === key) return names.lookup(i + 1);
      }
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) {
      const found = search(kids.lookupMaybe(i, PDFDict), depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return search(tree, 0);
}
