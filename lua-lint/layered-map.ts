/**
 * The map behind each path's keys and variables in the lua-lint walk (`state.ts`): a persistent
 * map made of layers, so that a fork costs O(1) and a join costs what the two paths changed since
 * they forked, not the size of the map.
 *
 * A {@link LayeredMap} is a stack of `Map`s: the top layer holds the entries written since the map
 * was forked from the layer below, and a lookup goes down the stack until it finds the key. Only
 * the path that owns the top layer writes it in place (`State.ownKeys` / `ownVars`); a shared map
 * is never written again. {@link LayeredMap.fork} gives a path a new empty layer on top of a shared
 * map; {@link joinLayered} finds the deepest layer two maps share and joins only the keys written
 * above it, in a new layer over that common one.
 *
 * Stacks stay shallow: a map of at most {@link FLAT_LIMIT} entries is copied into one layer when
 * forked (what a plain copy on write did, and the fastest for the small maps of most scripts), and
 * a larger one merges its top layer into the layer below while that one holds no more than twice
 * as many entries, so each layer holds more than twice the entries of the one above it and the
 * depth stays logarithmic in the map's size. Merges are remembered per layer, so that two paths
 * forked from the same map keep sharing the merged layer (and joins stay small).
 *
 * Iteration order is the order of a plain `Map` that received the same writes (entries of lower
 * layers first, then the keys each higher layer added), which the walk's reports depend on.
 *
 * A layer is a `Map`, or for a map made with `LayeredMap.empty(true)` an {@link ArrayLayer}: the
 * same ordered map in two arrays, searched linearly while small. A path's variables (a few dozen
 * integer ids, forked and joined at every branch and every call of a local function) are kept so:
 * copying two arrays and joining them position by position costs a fifth of the same on `Map`s.
 */

/** A deleted entry in a layer above the one that holds the key. */
const GONE: unique symbol = Symbol('gone');
type Slot<V> = V | typeof GONE;

/** Maps of at most this many entries are copied into a single layer when forked. */
export const FLAT_LIMIT = 64;

/** What the map code needs of a layer: the part of `Map`'s interface it uses. */
interface Layer<K, V> {
  readonly size: number;
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): unknown;
  delete(key: K): unknown;
  keys(): Iterable<K>;
  [Symbol.iterator](): Iterator<[K, V]>;
}

/** From this many entries on, an {@link ArrayLayer} finds keys through an index. */
const INDEXED_FROM = 64;

/**
 * An ordered map in two parallel arrays, with the semantics of a `Map` that received the same
 * writes (insertion order; setting a present key keeps its place; a deleted key leaves). Keys are
 * compared with `===` (the integer ids of variables). Searched linearly while small, through an
 * index (made on demand) once it holds {@link INDEXED_FROM} entries.
 */
export class ArrayLayer<K, V> implements Layer<K, V> {
  private index: Map<K, number> | undefined;

  constructor(
    readonly keyList: K[] = [],
    readonly valueList: V[] = [],
  ) {}

  get size(): number {
    return this.keyList.length;
  }

  /** The position of `key`, or -1 (a large layer is searched through an index, kept up to date). */
  find(key: K): number {
    const keys = this.keyList;
    if (keys.length < INDEXED_FROM) {
      for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i;
      return -1;
    }
    let index = this.index;
    if (index === undefined) {
      index = new Map();
      for (let i = 0; i < keys.length; i++) index.set(keys[i]!, i);
      this.index = index;
    }
    const at = index.get(key);
    return at === undefined ? -1 : at;
  }

  get(key: K): V | undefined {
    const at = this.find(key);
    return at < 0 ? undefined : this.valueList[at];
  }

  has(key: K): boolean {
    return this.find(key) >= 0;
  }

  set(key: K, value: V): this {
    const at = this.find(key);
    if (at >= 0) this.valueList[at] = value;
    else {
      this.keyList.push(key);
      this.valueList.push(value);
      if (this.index !== undefined) this.index.set(key, this.keyList.length - 1);
    }
    return this;
  }

  delete(key: K): boolean {
    const at = this.find(key);
    if (at < 0) return false;
    this.keyList.splice(at, 1);
    this.valueList.splice(at, 1);
    const index = this.index;
    if (index !== undefined) {
      // the keys after it moved one place down (a scope's locals are near the end)
      index.delete(key);
      for (let i = at; i < this.keyList.length; i++) index.set(this.keyList[i]!, i);
    }
    return true;
  }

  keys(): K[] {
    return this.keyList;
  }

  /** The entries, read as the loop goes (a value set during the loop is seen, as with a Map). */
  [Symbol.iterator](): Iterator<[K, V]> {
    let i = 0;
    const keys = this.keyList;
    const values = this.valueList;
    return {
      next: (): IteratorResult<[K, V]> => (i < keys.length ? { value: [keys[i]!, values[i++]!], done: false } : { value: undefined, done: true }),
    };
  }

  copy(): ArrayLayer<K, V> {
    return new ArrayLayer(this.keyList.slice(), this.valueList.slice());
  }
}

/** A persistent map of layers (see the module comment). Values are never `undefined`. */
export class LayeredMap<K, V> {
  /** The layer this one's top was merged into (see {@link compacted}), once computed. */
  private merged: LayeredMap<K, V> | undefined;

  private constructor(
    private readonly parent: LayeredMap<K, V> | undefined,
    private readonly own: Layer<K, Slot<V>>,
    /** Number of layers below this one. */
    private readonly depth: number,
    /** An upper bound of the number of entries (exact for a single layer). */
    private bound: number,
    /** Layers are {@link ArrayLayer}s (else `Map`s); kept by every map made from this one. */
    private readonly arrays: boolean,
  ) {}

  /**
   * An empty map of one layer.
   * @param arrays keep the layers in arrays ({@link ArrayLayer}): for keys compared with `===`
   *   (integers) in a map of a few dozen entries.
   */
  static empty<K, V>(arrays = false): LayeredMap<K, V> {
    return new LayeredMap<K, V>(undefined, arrays ? new ArrayLayer() : new Map(), 0, 0, arrays);
  }

  /** A map of one layer holding `entries` (taken over, not copied), with the layers of `like`. */
  private static of<K, V>(entries: Layer<K, V>, like: LayeredMap<K, V>): LayeredMap<K, V> {
    return new LayeredMap<K, V>(undefined, entries, 0, entries.size, like.arrays);
  }

  /**
   * A new empty layer of this map's kind, for about `size` entries: a layer that large is a `Map`
   * whatever the kind (the arrays pay only while a linear search is short).
   */
  private newLayer<T>(size = 0): Layer<K, T> {
    return this.arrays && size < INDEXED_FROM ? new ArrayLayer<K, T>() : new Map<K, T>();
  }

  /** A copy of one of this map's layers (a large array layer becomes a `Map`). */
  private static copyLayer<K, T>(layer: Layer<K, T>): Layer<K, T> {
    if (!(layer instanceof ArrayLayer)) return copyMap(layer as Map<K, T>);
    if (layer.size < INDEXED_FROM) return layer.copy();
    const out = new Map<K, T>();
    for (let i = 0; i < layer.keyList.length; i++) out.set(layer.keyList[i]!, layer.valueList[i]!);
    return out;
  }

  get(key: K): V | undefined {
    const slot = this.own.get(key);
    if (slot !== undefined) return slot === GONE ? undefined : slot;
    for (let layer = this.parent; layer; layer = layer.parent) {
      const below = layer.own.get(key);
      if (below !== undefined) return below === GONE ? undefined : below;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Writes the top layer in place: only for the map a path owns. */
  set(key: K, value: V): void {
    if (!this.own.has(key)) this.bound++;
    this.own.set(key, value);
  }

  /** Deletes in place (see {@link set}). */
  delete(key: K): void {
    if (this.parent === undefined) this.own.delete(key);
    else if (this.has(key)) this.own.set(key, GONE);
  }

  /** The number of entries: O(entries) unless the map is one layer. */
  get size(): number {
    return this.parent === undefined ? this.own.size : this.flat().size;
  }

  /**
   * A map equal to this one for a path to write; this one is left as it is (and must not be
   * written in place any more).
   */
  fork(): LayeredMap<K, V> {
    if (this.bound <= FLAT_LIMIT) return LayeredMap.of(this.flat(this.parent === undefined), this);
    const base = this.compacted();
    return new LayeredMap<K, V>(base, this.newLayer(), base.depth + 1, base.bound, this.arrays);
  }

  [Symbol.iterator](): Iterator<[K, V]> {
    // a single layer holds no GONE
    return (this.parent === undefined ? (this.own as Layer<K, V>) : this.flat())[Symbol.iterator]();
  }

  /** The entries as one layer (a copy when `copy` is set or the map has several layers). */
  private flat(copy = true): Layer<K, V> {
    if (this.parent === undefined) return copy ? LayeredMap.copyLayer(this.own as Layer<K, V>) : (this.own as Layer<K, V>);
    const layers: LayeredMap<K, V>[] = [this];
    for (let layer: LayeredMap<K, V> | undefined = this.parent; layer; layer = layer.parent) layers.push(layer);
    const out = this.newLayer<V>(this.bound);
    for (let i = layers.length - 1; i >= 0; i--) {
      for (const [key, slot] of layers[i]!.own) {
        if (slot === GONE) out.delete(key);
        else out.set(key, slot);
      }
    }
    this.bound = out.size;
    return out;
  }

  /**
   * This map with small layers merged into the ones below (the same entries), so that every layer
   * holds more than twice the entries of the one above it. Only for a map no path writes any more.
   */
  private compacted(): LayeredMap<K, V> {
    this.merged ??= LayeredMap.compact(this);
    return this.merged;
  }

  private static compact<K, V>(map: LayeredMap<K, V>): LayeredMap<K, V> {
    let top = map;
    while (top.parent && top.parent.own.size <= 2 * top.own.size) {
      const below = top.parent;
      const own = LayeredMap.copyLayer(below.own);
      for (const [key, slot] of top.own) {
        if (slot === GONE && below.parent === undefined) own.delete(key);
        else own.set(key, slot);
      }
      top = new LayeredMap<K, V>(below.parent, own, below.depth, top.bound, map.arrays);
    }
    // an empty top layer adds nothing
    if (top.own.size === 0 && top.parent) top = top.parent.compacted();
    return top;
  }

  /**
   * Whether a fork copies this map into a new one (at most {@link FLAT_LIMIT} entries): then a fork
   * keeps no reference to it, and caches nothing on it.
   */
  copiesOnFork(): boolean {
    return this.bound <= FLAT_LIMIT;
  }

  /** This map, or the same entries in the merged layers a fork of it built on (see {@link compacted}). */
  settled(): LayeredMap<K, V> {
    return this.merged ?? this;
  }

  /** The deepest layer this map and `other` share, if any. */
  commonLayer(other: LayeredMap<K, V>): LayeredMap<K, V> | undefined {
    return LayeredMap.common(this, other);
  }

  private static common<K, V>(first: LayeredMap<K, V>, second: LayeredMap<K, V>): LayeredMap<K, V> | undefined {
    let a: LayeredMap<K, V> | undefined = first;
    let b: LayeredMap<K, V> | undefined = second;
    while (a && b && a !== b) {
      if (a.depth >= b.depth) a = a.parent;
      else b = b.parent;
    }
    return a && a === b ? a : undefined;
  }

  /**
   * Joins two maps of one layer each (no layer in common: forks of small maps are copies), key by
   * key as {@link joinLayered} does, straight from their entries.
   */
  static joinSingle<K, V>(a: LayeredMap<K, V>, b: LayeredMap<K, V>, missing: V, joinOne: (x: V, y: V) => V): LayeredMap<K, V> | undefined {
    if (a.parent !== undefined || b.parent !== undefined) return undefined;
    if (a.own instanceof ArrayLayer && b.own instanceof ArrayLayer) return LayeredMap.joinArrays(a, a.own as ArrayLayer<K, V>, b.own as ArrayLayer<K, V>, missing, joinOne);
    const left = a.own as Map<K, V>;
    const right = b.own as Map<K, V>;
    const out = new Map<K, V>();
    // a's keys in a's order, then b's others in b's: the order of the keys a walk of both gives
    for (const [key, x] of left) {
      const y = right.get(key) ?? missing;
      out.set(key, x === y ? x : joinOne(x, y));
    }
    for (const [key, y] of right) if (!left.has(key)) out.set(key, y === missing ? y : joinOne(missing, y));
    return LayeredMap.of(out, a);
  }

  /**
   * {@link joinSingle} of two array layers: the same keys, values and order. Two forks of one map
   * mostly hold their keys at the same positions, so each key is looked for there first.
   */
  private static joinArrays<K, V>(like: LayeredMap<K, V>, left: ArrayLayer<K, V>, right: ArrayLayer<K, V>, missing: V, joinOne: (x: V, y: V) => V): LayeredMap<K, V> {
    const aKeys = left.keyList;
    const aValues = left.valueList;
    const bKeys = right.keyList;
    const bValues = right.valueList;
    const keys: K[] = [];
    const values: V[] = [];
    for (let i = 0; i < aKeys.length; i++) {
      const key = aKeys[i]!;
      const at = bKeys[i] === key ? i : right.find(key);
      const x = aValues[i]!;
      const y = at < 0 ? missing : bValues[at]!;
      keys.push(key);
      values.push(x === y ? x : joinOne(x, y));
    }
    for (let i = 0; i < bKeys.length; i++) {
      const key = bKeys[i]!;
      if (aKeys[i] === key || left.find(key) >= 0) continue;
      const y = bValues[i]!;
      keys.push(key);
      values.push(y === missing ? y : joinOne(missing, y));
    }
    return LayeredMap.of(new ArrayLayer(keys, values), like);
  }

  /** The keys written above layer `base` (every key when `base` is undefined), in insertion order. */
  keysAbove(base: LayeredMap<K, V> | undefined, into: Set<K>): void {
    if (this === base) return;
    const layers: LayeredMap<K, V>[] = [this];
    for (let layer: LayeredMap<K, V> | undefined = this.parent; layer && layer !== base; layer = layer.parent) layers.push(layer);
    for (let i = layers.length - 1; i >= 0; i--) for (const key of layers[i]!.own.keys()) into.add(key);
  }

  /** A new layer over `base` holding `own`. */
  static over<K, V>(base: LayeredMap<K, V>, own: Layer<K, Slot<V>>): LayeredMap<K, V> {
    return new LayeredMap<K, V>(base, own, base.depth + 1, base.bound + own.size, base.arrays);
  }

  /** A new empty layer of the kind `like`'s layers are, for {@link joinLayered}. */
  static layerLike<K, T>(like: LayeredMap<K, unknown>, size: number): Layer<K, T> {
    return like.newLayer<T>(size);
  }

  /** A map of one layer holding `entries`, with the layers of `like` (for {@link joinLayered}). */
  static single<K, V>(entries: Layer<K, V>, like: LayeredMap<K, V>): LayeredMap<K, V> {
    return LayeredMap.of(entries, like);
  }

  /** Marks a key deleted in a layer being built by {@link joinLayered}. */
  static readonly GONE: typeof GONE = GONE;
}

/** A copy of a small map: a loop of sets, a third faster than `new Map(map)` in V8. */
function copyMap<K, V>(map: Map<K, V>): Map<K, V> {
  const out = new Map<K, V>();
  for (const [key, value] of map) out.set(key, value);
  return out;
}

/**
 * Joins two maps key by key: a key missing on one side takes `missing` there; equal values are
 * kept as they are, others go through `joinOne(x, y)` (x from `a`). Costs the number of keys
 * written on either side since the two maps forked (every key when they share no layer). Neither
 * map is changed; the result is shared (not to be written in place).
 */
export function joinLayered<K, V>(left: LayeredMap<K, V>, right: LayeredMap<K, V>, missing: V, joinOne: (x: V, y: V) => V): LayeredMap<K, V> {
  if (left === right) return left;
  // a map already forked may have a merged copy of its layers that the other side built on
  const a = left.settled();
  const b = right.settled();
  if (a === b) return a;
  const base = a.commonLayer(b);
  if (!base) {
    const joined = LayeredMap.joinSingle(a, b, missing, joinOne);
    if (joined) return joined;
  }
  const changed = new Set<K>();
  a.keysAbove(base, changed);
  b.keysAbove(base, changed);
  const out = LayeredMap.layerLike<K, Slot<V>>(a, changed.size);
  for (const key of changed) {
    const x = a.get(key);
    const y = b.get(key);
    if (x !== undefined) out.set(key, x === (y ?? missing) ? x : joinOne(x, y ?? missing));
    else if (y !== undefined) out.set(key, y === missing ? y : joinOne(missing, y));
    else if (base) out.set(key, LayeredMap.GONE);
  }
  return base ? LayeredMap.over(base, out) : LayeredMap.single(out as Layer<K, V>, a);
}
