// How big the numbers and polynomials of a question get, estimated before the math engine sees it. nerdamer computes
// exactly: (10^10)! or 9^9^9 would keep it busy until its time bound (and grow its memory), while no student exercise
// needs more than a few hundred digits. The estimate reads the question as the engine would (powers to the right,
// factorials first, a product where two terms meet) and knows the value of every part made of numbers only.

/** Larger exponents (in any form: 2^13, 2^(6+7), x^(10^10)) are refused; expand (x+1)^60 alone takes the engine long. */
const MAX_EXPONENT = 12;
/** 100! has 158 digits; a factorial of anything larger, or of an unknown, is refused. */
const MAX_FACTORIAL = 100;
/** The most digits (or the highest degree, for polynomials) any part of a question may reach. */
const MAX_DIGITS = 400;

/** Any part of a question: its value when it is made of numbers only, and its size in digits (or degree). */
type Part = { value: number | null; digits: number };

class TooLarge extends Error {}

const known = (value: number): number | null => (Number.isFinite(value) ? value : null);

function sized(value: number | null, digits: number): Part {
  if (digits > MAX_DIGITS) throw new TooLarge();
  return { value, digits };
}

function factorial(part: Part): Part {
  const n = part.value;
  if (n === null || !Number.isInteger(n) || n < 0 || n > MAX_FACTORIAL) throw new TooLarge();
  let digits = 1;
  let value = 1;
  for (let k = 2; k <= n; k += 1) {
    digits += Math.log10(k);
    value *= k;
  }
  return sized(known(value), Math.ceil(digits));
}

function power(base: Part, exponent: Part): Part {
  if (exponent.value === null) return sized(null, base.digits + exponent.digits); // symbolic, as in e^x
  const n = Math.abs(exponent.value);
  if (n > MAX_EXPONENT) throw new TooLarge();
  const value = base.value === null ? null : known(base.value ** exponent.value);
  return sized(value, Number.isInteger(n) ? base.digits * Math.max(1, n) : base.digits + exponent.digits);
}

const TOKEN = /\s*(?:(\d+(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+)|([a-z]+)|([-+*/^!%()]))/iy;

/** A reader of one question; anything it does not know (=, commas, words) separates parts or is an unknown. */
function createReader(text: string) {
  const tokens: string[] = [];
  for (let at = 0; at < text.length;) {
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (match) {
      tokens.push(match[0].trim());
      at = TOKEN.lastIndex;
    } else {
      if (text[at]?.trim()) tokens.push(','); // =, commas and other signs separate parts
      at += 1;
    }
  }
  let index = 0;
  const peek = () => tokens[index];
  const startsTerm = (token: string | undefined) => token !== undefined && /^(?:[\d.a-z]|\()/i.test(token);

  function atom(): Part {
    const token = peek();
    if (token === undefined || !startsTerm(token)) return { value: null, digits: 0 };
    index += 1;
    if (token === '(') {
      const inner = sequence();
      if (peek() === ')') index += 1;
      return inner;
    }
    if (/^[\d.]/.test(token)) return sized(known(Number(token)), token.replace(/\D/g, '').length);
    return { value: null, digits: 1 }; // a variable, a constant or a function's name
  }

  function postfix(): Part {
    let part = atom();
    for (;;) {
      if (peek() === '!') part = factorial(part);
      else if (peek() === '%') part = sized(part.value === null ? null : part.value / 100, part.digits);
      else return part;
      index += 1;
    }
  }

  /** Powers group to the right: 9^9^9 is 9^(9^9). */
  function powerOrPostfix(): Part {
    const base = postfix();
    if (peek() !== '^') return base;
    index += 1;
    return power(base, signed());
  }

  function signed(): Part {
    if (peek() !== '-' && peek() !== '+') return powerOrPostfix();
    const negative = peek() === '-';
    index += 1;
    const part = signed();
    return { value: part.value === null ? null : negative ? -part.value : part.value, digits: part.digits };
  }

  function product(): Part {
    let part = signed();
    for (;;) {
      const token = peek();
      const explicit = token === '*' || token === '/';
      if (!explicit && !startsTerm(token)) return part;
      if (explicit) index += 1;
      const next = signed();
      const value =
        part.value === null || next.value === null
          ? null
          : known(token === '/' ? part.value / next.value : part.value * next.value);
      part = sized(value, part.digits + next.digits);
    }
  }

  function sum(): Part {
    let part = product();
    while (peek() === '+' || peek() === '-') {
      const minus = peek() === '-';
      index += 1;
      const next = product();
      const value =
        part.value === null || next.value === null
          ? null
          : known(minus ? part.value - next.value : part.value + next.value);
      part = sized(value, Math.max(part.digits, next.digits) + 1);
    }
    return part;
  }

  /** Parts separated by what the reader does not know; a stray closing bracket separates too. */
  function sequence(): Part {
    let part = sum();
    while (peek() === ',' || (peek() !== undefined && peek() !== ')' && !startsTerm(peek()))) {
      index += 1;
      part = sum();
    }
    return part;
  }

  return {
    readAll() {
      while (index < tokens.length) {
        sequence();
        if (peek() === ')') index += 1;
      }
    },
  };
}

/** True when some part of the question is too large for the engine to work out exactly in good time. */
export function exceedsEngineBounds(question: string): boolean {
  try {
    createReader(question).readAll();
    return false;
  } catch (error) {
    if (error instanceof TooLarge) return true;
    throw error;
  }
}
