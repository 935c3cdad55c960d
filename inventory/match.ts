/**
 * Matching live key names to key shapes: which shape of an inventory (inventory/format.ts) wrote
 * a key. A shape is the key's spelling with `*` for each run-time part (`session:*`,
 * `rl:{*}:count`); the live shape is the client's `keyPrefix` followed by the shape.
 *
 * A `*` matches any run of characters, `:` included (and empty), wherever it stands: the one
 * reading of `*` of `settings['redis-ttl'].persistentKeys`, `--only`, `--match` and
 * `--fail-on-persistent` (`semantics/key-patterns.ts` {@link matchStars} is the matcher), so a
 * shape copied into `persistentKeys` claims in the linter exactly the keys it claims here. Until
 * round 21 a whole-segment `*` matched one segment only, which made `user:*` mean two things. The
 * reasoning is in docs/redis-ttl-audit.md, "How shapes match live keys".
 *
 * A shape too broad to tell one family of keys from another is never used: see
 * {@link MIN_LITERAL_RUN}. When several shapes match one key, the most specific wins: see
 * {@link compareSpecificity} (`user:*:settings` before `user:*` for `user:42:settings`).
 *
 * Cost: shapes are compiled once; a key walks a radix tree of the shapes' leading literal text
 * and one of the trailing literals of the shapes that start with `*` (a few map lookups each),
 * and is tested against the candidates in order of specificity, each test a few `startsWith` /
 * `indexOf` calls; only shapes with `*` at both ends are tried on every key. The test never
 * backtracks (see {@link matchStars}): keys are attacker-controlled strings.
 */
import { matchStars, starLiterals } from '../semantics/key-patterns.js';

/** What a `*` of a shape may match: any run of characters (the only kind since round 21; kept for the `stars` field's type). */
export type StarKind = 'any';

/** A shape compiled for matching. */
export interface CompiledShape {
  /** The live shape: keyPrefix + shape, runs of `*` collapsed to one. */
  readonly shape: string;
  /** The literal texts between the stars: `literals.length === stars.length + 1`. */
  readonly literals: readonly string[];
  /** The kind of each star, in order. */
  readonly stars: readonly StarKind[];
  /** Characters of literal text. */
  readonly literalLength: number;
  /** The longest literal run. */
  readonly longestLiteral: string;
}

/**
 * The shortest literal run (characters between two `*`, or at an end) a shape needs, with at
 * least one letter or digit in it, to be used to attribute keys. `*`, `*:*`, `{*}:*`, `q:*`
 * (2 characters) are below it: their `*` matches any run, so they would claim the keys of every
 * family. `rl:*`, `*:meta`, `job_*` reach it. Such shapes still go into the
 * report's notes.
 */
export const MIN_LITERAL_RUN = 3;

/**
 * Compiles a live shape (keyPrefix + shape). Never throws: every string is a shape; one without
 * `*` matches only itself.
 */
export function compileShape(liveShape: string): CompiledShape {
  const literals = starLiterals(liveShape);
  const shape = literals.join('*');
  const stars: StarKind[] = literals.slice(1).map(() => 'any');
  const longestLiteral = literals.reduce((a, b) => (b.length > a.length ? b : a), '');
  return { shape, literals, stars, literalLength: literals.reduce((n, l) => n + l.length, 0), longestLiteral };
}

/**
 * Why a shape is too broad to attribute keys ({@link MIN_LITERAL_RUN}), or undefined when it may
 * be used.
 */
export function tooBroad(shape: CompiledShape): string | undefined {
  const runs = shape.literals.filter((l) => l.length >= MIN_LITERAL_RUN && /[\p{L}\p{N}]/u.test(l));
  if (runs.length > 0) return undefined;
  return `no literal part of ${MIN_LITERAL_RUN} or more characters with a letter or digit: it would claim keys of unrelated families`;
}

/**
 * Orders shapes from the most specific to the least: more literal characters first, then fewer
 * stars, then the longer leading literal (a prefix says more than a suffix), then the spelling
 * (so the order never depends on the inventory's order). Negative when `a` is more specific.
 */
export function compareSpecificity(a: CompiledShape, b: CompiledShape): number {
  return (
    b.literalLength - a.literalLength ||
    a.stars.length - b.stars.length ||
    b.literals[0]!.length - a.literals[0]!.length ||
    (a.shape < b.shape ? -1 : a.shape > b.shape ? 1 : 0)
  );
}

/** Whether `key` matches the compiled shape, whole: each `*` any run of characters ({@link matchStars}). */
export function matchShape(shape: CompiledShape, key: string): boolean {
  return matchStars(shape.literals, key);
}

interface Entry<T> {
  compiled: CompiledShape;
  value: T;
  /** Position in the order of specificity over all the shapes of the index (0: the most specific). */
  rank: number;
}

/** A node of a radix tree over the shapes' leading (or, reversed, trailing) literals. */
interface Node<T> {
  /** The text of the edge from the parent (reversed in a tree of trailing literals). */
  label: string;
  children: Map<number, Node<T>>;
  /** Shapes whose literal ends exactly here. */
  own: Entry<T>[];
  /** Every shape whose literal is on the path to here, most specific first (set where `own` is not empty, and at the root). */
  candidates: Entry<T>[] | null;
}

/**
 * A radix tree over one literal of each shape: the leading one, or (`reverse`) the trailing one
 * read from the end. `candidates(key)` gives, most specific first, the shapes whose literal the
 * key starts (ends) with: a few map lookups per key, however many shapes.
 */
class LiteralTree<T> {
  private readonly root: Node<T> = { label: '', children: new Map(), own: [], candidates: null };

  constructor(private readonly reverse: boolean) {}

  /** The i-th character of `text` in the tree's reading direction. */
  private at(text: string, i: number): number {
    return this.reverse ? text.charCodeAt(text.length - 1 - i) : text.charCodeAt(i);
  }

  add(literal: string, entry: Entry<T>): void {
    const text = this.reverse ? [...literal].reverse().join('') : literal;
    let node = this.root;
    let pos = 0;
    for (;;) {
      if (pos === text.length) {
        node.own.push(entry);
        return;
      }
      const code = text.charCodeAt(pos);
      const child = node.children.get(code);
      if (child === undefined) {
        node.children.set(code, { label: text.slice(pos), children: new Map(), own: [entry], candidates: null });
        return;
      }
      let common = 0;
      while (common < child.label.length && pos + common < text.length && child.label.charCodeAt(common) === text.charCodeAt(pos + common)) common += 1;
      if (common < child.label.length) {
        // split the edge: node -> middle (the common part) -> child (the rest)
        const middle: Node<T> = { label: child.label.slice(0, common), children: new Map(), own: [], candidates: null };
        child.label = child.label.slice(common);
        middle.children.set(child.label.charCodeAt(0), child);
        node.children.set(code, middle);
        node = middle;
      } else {
        node = child;
      }
      pos += common;
    }
  }

  /** Sorts the candidate lists; call once, after the last `add`. */
  finish(node: Node<T> = this.root, inherited: Entry<T>[] = []): void {
    let here = inherited;
    if (node.own.length > 0 || node === this.root) {
      here = [...inherited, ...node.own].sort((a, b) => a.rank - b.rank);
      node.candidates = here;
    }
    for (const child of node.children.values()) this.finish(child, here);
  }

  /** The shapes whose literal `key` starts (ends) with, most specific first. */
  candidates(key: string): Entry<T>[] {
    let node = this.root;
    let candidates = node.candidates!;
    let pos = 0;
    for (;;) {
      const child = node.children.get(this.at(key, pos));
      if (child === undefined) break;
      const { label } = child;
      if (pos + label.length > key.length) break;
      let j = 0;
      while (j < label.length && label.charCodeAt(j) === this.at(key, pos + j)) j += 1;
      if (j < label.length) break;
      pos += label.length;
      node = child;
      if (node.candidates !== null) candidates = node.candidates;
    }
    return candidates;
  }
}

/** A shape left out of a {@link ShapeIndex}, and why. */
export interface SkippedShape<T> {
  shape: string;
  value: T;
  reason: string;
}

/**
 * Shapes compiled once, for matching millions of keys: `match(key)` returns the value of the
 * most specific shape that matches it ({@link compareSpecificity}), or undefined.
 * Shapes {@link tooBroad} are left out (listed in `skipped`).
 *
 * A shape with a leading literal is found through a radix tree of leading literals; one that
 * starts with `*` (an unknown key prefix: `*:jobs`) through a tree of trailing literals read from
 * the end. Only a shape with `*` at both ends (`*session:*`, `*stat*failed*`) is tried on every
 * key.
 */
export class ShapeIndex<T> {
  private readonly prefixes = new LiteralTree<T>(false);
  private readonly suffixes = new LiteralTree<T>(true);
  /** Shapes left out: too broad to attribute keys. */
  readonly skipped: SkippedShape<T>[] = [];
  /** How many shapes are used. */
  readonly size: number;

  /** @param shapes live shapes (keyPrefix + shape) with the value `match` returns for each */
  constructor(shapes: Iterable<{ shape: string; value: T }>) {
    const entries: Entry<T>[] = [];
    for (const { shape, value } of shapes) {
      const compiled = compileShape(shape);
      const reason = tooBroad(compiled);
      if (reason === undefined) entries.push({ compiled, value, rank: 0 });
      else this.skipped.push({ shape: compiled.shape, value, reason });
    }
    entries.sort((a, b) => compareSpecificity(a.compiled, b.compiled));
    for (const [rank, entry] of entries.entries()) {
      entry.rank = rank;
      const { literals } = entry.compiled;
      // the trailing tree's root holds the shapes with `*` at both ends: candidates for every key
      if (literals[0] !== '') this.prefixes.add(literals[0]!, entry);
      else this.suffixes.add(literals[literals.length - 1]!, entry);
    }
    this.prefixes.finish();
    this.suffixes.finish();
    this.size = entries.length;
  }

  /** The value of the most specific shape matching `key`, or undefined. */
  match(key: string): T | undefined {
    const a = this.prefixes.candidates(key);
    const b = this.suffixes.candidates(key);
    // the two lists merged by rank: the first shape that matches is the most specific
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const entry = j >= b.length || (i < a.length && a[i]!.rank < b[j]!.rank) ? a[i++]! : b[j++]!;
      if (matchShape(entry.compiled, key)) return entry.value;
    }
    return undefined;
  }
}
