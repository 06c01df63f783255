/**
 * Integer apportionment, the one rounding rule of the money side (docs/decisions/split-rounding.md): each entry
 * gets floor(total × weight / Σ weights), then the leftover centavos go one each to the entries in order (the
 * first first) that can still take one (share < weight). So shares never exceed their weights and the merchant,
 * always first, receives the leftovers. Requires 0 ≤ total ≤ Σ weights.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total < 0 || total > sum) throw new RangeError(`cannot apportion ${total} over ${sum}`);
  if (total === 0) return weights.map(() => 0);
  const big = BigInt(total);
  const bigSum = BigInt(sum);
  const shares = weights.map((weight) => Number((big * BigInt(weight)) / bigSum));
  let left = total - shares.reduce((a, b) => a + b, 0);
  for (let index = 0; left > 0; index = (index + 1) % shares.length) {
    if (shares[index]! < weights[index]!) {
      shares[index]! += 1;
      left -= 1;
    }
  }
  return shares;
}

/** `total` in `count` parts as equal as can be, the first parts one centavo larger. */
export function splitEvenly(total: number, count: number): number[] {
  const base = Math.floor(total / count);
  const extra = total - base * count;
  return Array.from({ length: count }, (_, index) => base + (index < extra ? 1 : 0));
}

/**
 * Each recipient's gross (`totals`) over the installments (`installments`, summing to Σ totals), so that every
 * row sums to its total and every column to its installment: installment by installment, the installment is
 * apportioned by what each recipient still has to receive; the last one takes what is left.
 */
export function installmentMatrix(totals: readonly number[], installments: readonly number[]): number[][] {
  const left = [...totals];
  const matrix = totals.map(() => [] as number[]);
  installments.forEach((amount, k) => {
    const shares = k === installments.length - 1 ? [...left] : apportion(amount, left);
    shares.forEach((share, i) => {
      matrix[i]!.push(share);
      left[i]! -= share;
    });
  });
  return matrix;
}
