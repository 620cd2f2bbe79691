import { createHash } from 'node:crypto';

/**
 * What identifies a failing element across scans, whatever its CSS classes: collected in the page
 * after axe has run (see node-facts.ts) and stored with each violation node.
 */
export interface NodeFacts {
  /** Ancestor path from <html>: tag names, stable ids and roles; no classes, no sibling indexes. */
  path: string;
  tag: string;
  /** Accessible name (approximation, first 120 characters, whitespace collapsed). */
  name: string;
  /** sha256 (first 16 hex) of the element's own text (its direct text nodes, whitespace collapsed). */
  textHash: string;
}

/** A node as fingerprinting reads it (the report's node, old reports without facts included). */
export interface FingerprintInput {
  html: string;
  target: string[];
  facts?: NodeFacts;
}

const sha = (s: string, n = 16): string => createHash('sha256').update(s).digest('hex').slice(0, n);

export const textHashOf = (ownText: string): string => sha(ownText.replace(/\s+/g, ' ').trim());

/** Class names and generated attributes removed from a selector (`div.css-1x2y > p.Foo_bar__a1` -> `div > p`). */
export function stripClasses(selector: string): string {
  return selector
    .replace(/\.(?:-?[_a-zA-Z]|\\.)(?:[\w-]|\\.)*/g, '')
    .replace(/:nth-(?:child|of-type)\(\d+\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The element's fingerprint for one rule: sha256 of rule, class-free DOM path, tag, accessible name
 * and own-text hash. A node without facts (a frame's element, or a report older than fingerprints)
 * falls back to its selector path without classes or sibling indexes and its markup without
 * class attributes.
 */
export function fingerprintOf(rule: string, node: FingerprintInput): string {
  const f = node.facts;
  if (f) return sha(['v1', rule, f.path, f.tag, f.name, f.textHash].join('\n'), 24);
  const html = node.html.replace(/\sclass\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '');
  return sha(['v1-fallback', rule, node.target.map(stripClasses).join(' | '), html].join('\n'), 24);
}

/** The looser identity used when the exact fingerprint found no partner: the element moved in the tree. */
export function looseKeyOf(rule: string, node: FingerprintInput): string | undefined {
  const f = node.facts;
  if (!f || (!f.name && f.textHash === textHashOf(''))) return undefined; // nothing to recognise it by
  return sha(['v1-loose', rule, f.tag, f.name, f.textHash].join('\n'), 24);
}
