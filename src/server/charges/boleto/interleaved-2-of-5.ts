/**
 * The barcode of a boleto as SVG: Interleaved 2 of 5 (FEBRABAN's symbology), an even count of digits in pairs, the
 * first digit of a pair in the bars and the second in the spaces. Narrow 1 unit, wide 3 units; start `nnnn`
 * (bar, space, bar, space narrow), stop `wnn` (wide bar, narrow space, narrow bar). Written here: 30 lines, no
 * dependency, and the boleto's printable page is its only use.
 */
const PATTERNS = ['nnwwn', 'wnnnw', 'nwnnw', 'wwnnn', 'nnwnw', 'wnwnn', 'nwwnn', 'nnnww', 'wnnwn', 'nwnwn'];

/** Element widths (in units) alternating bar, space, bar, … */
export function interleaved2of5Widths(digits: string): number[] {
  if (!/^(\d\d)+$/.test(digits)) throw new Error('Interleaved 2 of 5 encodes an even number of digits.');
  const width = (element: string) => (element === 'w' ? 3 : 1);
  const widths = [1, 1, 1, 1];
  for (let index = 0; index < digits.length; index += 2) {
    const bars = PATTERNS[Number(digits[index])]!;
    const spaces = PATTERNS[Number(digits[index + 1])]!;
    for (let element = 0; element < 5; element += 1)
      widths.push(width(bars[element]!), width(spaces[element]!));
  }
  widths.push(3, 1, 1);
  return widths;
}

export function interleaved2of5Svg(digits: string, options: { height?: number; unit?: number } = {}): string {
  const { height = 50, unit = 1 } = options;
  const widths = interleaved2of5Widths(digits);
  let x = 10 * unit;
  const bars: string[] = [];
  widths.forEach((width, index) => {
    if (index % 2 === 0) bars.push(`M${x} 0h${width * unit}v${height}h-${width * unit}z`);
    x += width * unit;
  });
  const total = x + 10 * unit;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${height}" width="${total}" height="${height}" ` +
    `role="img" aria-label="Barcode ${digits}"><rect width="100%" height="100%" fill="#fff"/>` +
    `<path fill="#000" d="${bars.join('')}"/></svg>`
  );
}
