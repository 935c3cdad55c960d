/**
 * "Did you mean ...?" for a misspelt name (a rule id, an option, a config property): the nearest
 * name by edit distance (fastest-levenshtein), case ignored, when it is close enough to be a typo.
 */
import { closest, distance } from 'fastest-levenshtein';

/**
 * The name of `names` nearest to `word` when it is at most a third of `word`'s length away (and at
 * most 2 edits for short words): `no-getst` -> `no-getset`, `No-Getset` -> `no-getset`,
 * `persistentKey` -> `persistentKeys`. Case is ignored; the name is returned as `names` spells it.
 * @returns `undefined` when no name is that close (or `names` is empty).
 */
export function nearestName(word: string, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const lower = word.toLowerCase();
  const lowered = names.map((name) => name.toLowerCase());
  const nearest = closest(lower, lowered);
  return distance(lower, nearest) <= Math.max(2, Math.floor(word.length / 3)) ? names[lowered.indexOf(nearest)] : undefined;
}

/** `text` as a sentence: a full stop added unless it already ends in one (or in `?` / `!`). */
export function sentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
