/** Who checks out in a row: its own buyer (name, e-mail, a valid CPF) and the approved test card for everyone. */
export interface Buyer {
  name: string;
  email: string;
  /** CPF, 11 digits. */
  document: string;
}

export interface Checkout {
  buyer: Buyer;
  card: { number: string; holder_name: string; exp_month: string; exp_year: string; cvv: string };
}

const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elisa',
  'Fábio',
  'Gabriela',
  'Hugo',
  'Isabel',
  'João',
  'Larissa',
];
const LAST = [
  'Souza',
  'Oliveira',
  'Pereira',
  'Costa',
  'Rodrigues',
  'Almeida',
  'Nascimento',
  'Lima',
  'Araújo',
];

// A CPF check digit: the weighted sum of the digits before it, mod 11 (Receita Federal's rule).
const cpfDigit = (digits: number[]) => {
  const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
};

/** The `index`-th CPF of the lab: nine digits from the index, then both check digits. */
export function labCpf(index: number): string {
  const base = String(100_000_001 + index * 7_919)
    .padStart(9, '0')
    .slice(-9)
    .split('')
    .map(Number);
  const first = cpfDigit(base);
  return [...base, first, cpfDigit([...base, first])].join('');
}

/**
 * The `index`-th row's checkout. Names are ASCII-folded for typing (xdotool types through the keymap, and a
 * buyer's keyboard layout is not the point), distinct per row.
 */
export function labCheckout(index: number): Checkout {
  const first = FIRST[index % FIRST.length]!;
  const last = LAST[Math.floor(index / FIRST.length) % LAST.length]!;
  const name = `${first} ${last}`.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const email = `${name.toLowerCase().replace(' ', '.')}${index}@example.com`;
  return {
    buyer: { name, email, document: labCpf(index) },
    card: {
      number: '4111 1111 1111 1111',
      holder_name: name.toUpperCase(),
      exp_month: '12',
      exp_year: '2030',
      cvv: '123',
    },
  };
}

/** The checkout form's fields in page order, with what each gets typed; `#pay` submits. */
export const FIELDS = [
  ['buyer-name', (c: Checkout) => c.buyer.name],
  ['buyer-email', (c: Checkout) => c.buyer.email],
  ['buyer-cpf', (c: Checkout) => c.buyer.document],
  ['card-number', (c: Checkout) => c.card.number],
  ['card-holder', (c: Checkout) => c.card.holder_name],
  ['card-exp-month', (c: Checkout) => c.card.exp_month],
  ['card-exp-year', (c: Checkout) => c.card.exp_year],
  ['card-cvv', (c: Checkout) => c.card.cvv],
] as const;

/** `[selector, text]` in the order a buyer fills them. */
export const entries = (checkout: Checkout): [string, string][] =>
  FIELDS.map(([id, value]) => [`#${id}`, value(checkout)]);
