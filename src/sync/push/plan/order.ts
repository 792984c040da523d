/**
 * Which items of a reordered list can stay where they are, so that moving only the others gives
 * the new order: the heaviest subsequence of `items` (in their new order) whose old positions
 * increase. Weighted so that an item that needs an update anyway is the one to move, since its
 * move costs no extra operation. O(n log n) with a Fenwick tree of prefix maxima over the old
 * positions (each in 0 ≤ position < `size`, all distinct).
 */
export function keptInOrder(items: readonly { key: string; position: number; weight: number }[], size: number): Set<string> {
  // best[i]: heaviest chain ending at items[i]; tree[p]: the index into items of the best chain
  // ending at an old position ≤ p (1-based Fenwick over positions).
  const best = new Array<number>(items.length).fill(0);
  const previous = new Array<number>(items.length).fill(-1);
  const tree = new Array<number>(size + 1).fill(-1);
  const better = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : best[b]! > best[a]! ? b : a);
  items.forEach((item, i) => {
    let before = -1;
    for (let p = item.position; p > 0; p -= p & -p) before = better(before, tree[p]!);
    best[i] = (before < 0 ? 0 : best[before]!) + item.weight;
    previous[i] = before;
    for (let p = item.position + 1; p <= size; p += p & -p) tree[p] = better(tree[p]!, i);
  });
  let end = -1;
  for (let i = 0; i < items.length; i += 1) end = better(end, i);
  const kept = new Set<string>();
  for (let i = end; i >= 0; i = previous[i]!) kept.add(items[i]!.key);
  return kept;
}
