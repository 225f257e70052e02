// The offline math engine: a student's question in words → an exact answer with its steps, or an honest decline.
// nerdamer-prime does the algebra (chosen over mathjs, which has no equation solver, and algebrite, which has no
// system solver: docs/decisions/0012-offline-math-engine.md). Every answer is checked before it is given: roots are
// substituted back, an antiderivative is differentiated back; an answer that fails its check is declined.
import nerdamer from 'nerdamer-prime/all';
import { exceedsEngineBounds } from './math-size.ts';

export type MathAnswer =
  { solved: true; operation: MathOperation; answer: string; latex: string; steps: string[] } | { solved: false };

type MathOperation =
  'percentage' | 'arithmetic' | 'equation' | 'system' | 'derivative' | 'integral' | 'simplify' | 'expand' | 'factor';

const DECLINED: MathAnswer = { solved: false };
const MAX_QUESTION_LENGTH = 300;
const MAX_POLYNOMIAL_DEGREE = 4;

/** Typed symbols and words students use, rewritten to the engine's syntax. */
function normalise(text: string): string {
  return text
    .replace(/[×·]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[−–—]/g, '-')
    .replace(/²/g, '^2')
    .replace(/³/g, '^3')
    .replace(/√\s*\(/g, 'sqrt(')
    .replace(/√\s*(\w+)/g, 'sqrt($1)')
    .replace(/\*\*/g, '^')
    .replace(/\bln\(/g, 'log(')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Strips the polite wording around the mathematics ("what is", "please", a trailing "?" or "dx"). */
function stripWording(text: string): string {
  return text
    .replace(/^(please\s+|can you\s+|could you\s+|help me\s+|how do i\s+|how to\s+)+/i, '')
    .replace(/^(what is|what's|whats|find|calculate|compute|evaluate|work out)\s+/i, '')
    .replace(/^(the\s+)/i, '')
    .replace(/\s*(please)?\s*(?:[?.]|(?<![\d)])!)*\s*$/i, '') // "10!" keeps its factorial
    .replace(/\s*,?\s*(with respect to|wrt|for)\s+[a-z]\s*$/i, '')
    .trim();
}

const KNOWN_WORDS = new Set('sqrt sin cos tan sec csc cot asin acos atan log exp abs pi'.split(' '));

/** One letter names, pi, e and the usual functions only: any other word means the words were not mathematics. */
function isPlainMathematics(expression: string): boolean {
  if (!/^[0-9a-z+\-*/^()., =!]+$/i.test(expression)) return false;
  // nerdamer reads "x^2 from 0 to 1" without complaint and lists no variables, so words are checked here.
  if (!(expression.match(/[a-z]{2,}/gi) ?? []).every((word) => KNOWN_WORDS.has(word.toLowerCase()))) return false;
  try {
    return nerdamer(expression.split('=').join('-(') + (expression.includes('=') ? ')' : ''))
      .variables()
      .every((name) => /^[a-z]$/i.test(name));
  } catch {
    return false;
  }
}

function tex(expression: string): string {
  return nerdamer(expression).toTeX();
}

function plain(expression: string): string {
  return nerdamer(expression)
    .toString()
    .replace(/\*/g, '·')
    .replace(/sqrt\((\w+)\)/g, '√$1');
}

function isZero(expression: string): boolean {
  const simplified = nerdamer.simplify(expression).toString();
  if (simplified === '0') return true;
  const value = Number(nerdamer(expression).evaluate().text('decimals'));
  return Number.isFinite(value) && Math.abs(value) < 1e-9;
}

/** The entries of a vector nerdamer returns (roots, coefficients); its typings do not expose them. */
function vectorElements(vector: unknown): unknown[] {
  return (vector as { symbol: { elements: unknown[] } }).symbol.elements;
}

function mainVariable(expression: string): string {
  const names = nerdamer(expression).variables();
  return names.includes('x') ? 'x' : (names[0] ?? 'x');
}

function percentage(text: string): MathAnswer {
  const match = /^(-?\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(-?\d+(?:\.\d+)?)$/i.exec(text);
  if (!match) return DECLINED;
  const [, rate, base] = match as unknown as [string, string, string];
  const value = nerdamer(`${rate}/100*${base}`);
  const answer = value.evaluate().text('decimals');
  return {
    solved: true,
    operation: 'percentage',
    answer,
    latex: `${rate}\\% \\text{ of } ${base} = ${answer}`,
    steps: [
      `${rate}% means ${rate} hundredths, so multiply ${base} by ${rate}/100.`,
      `${base} × ${rate} ÷ 100 = ${answer}.`,
    ],
  };
}

function arithmetic(expression: string): MathAnswer {
  if (!/^(?:[0-9+\-*/^(). !]|sqrt)+$/.test(expression) || !/\d/.test(expression)) return DECLINED;
  const exact = nerdamer(expression);
  const exactText = exact.toString();
  const decimal = exact.evaluate().text('decimals');
  if (!Number.isFinite(Number(decimal))) return DECLINED;
  const answer = exactText === decimal || !exactText.includes('/') ? decimal : `${exactText} = ${decimal}`;
  return {
    solved: true,
    operation: 'arithmetic',
    answer: decimal,
    latex: `${tex(expression)} = ${exact.toTeX()}${exactText === decimal ? '' : ` \\approx ${decimal}`}`,
    steps: [
      'Work inside brackets first, then powers, then multiplication and division, then addition and subtraction.',
      `The result is ${answer}.`,
    ],
  };
}

function equation(expression: string): MathAnswer {
  const sides = expression.split('=');
  if (sides.length !== 2 || !sides[0]?.trim() || !sides[1]?.trim()) return DECLINED;
  const [left, right] = sides as [string, string];
  const zeroForm = nerdamer(`expand((${left})-(${right}))`).toString();
  const variable = mainVariable(zeroForm);
  if (nerdamer(zeroForm).variables().length !== 1) return DECLINED;
  // Only polynomial equations have an exact method here; sin(x) = x/2 would get numeric guesses dressed as fractions.
  if (/[a-z]{2,}\(/i.test(zeroForm)) return DECLINED;
  let degree: number;
  try {
    degree = Number(nerdamer.deg(zeroForm, variable).toString());
  } catch {
    return DECLINED; // not a polynomial (sin(x) = x/2 and the like): no exact method here
  }
  if (!Number.isInteger(degree) || degree < 1 || degree > MAX_POLYNOMIAL_DEGREE) return DECLINED;
  const roots = vectorElements(nerdamer.solve(zeroForm, variable))
    .map((root) => nerdamer(String(root)).toString())
    .filter((root, index, all) => all.indexOf(root) === index);
  // Cubic formula results with nested radicals are exact but useless to a student; and each root must check out.
  // Long digit runs are numeric approximations dressed as fractions (what the solver does for most quartics).
  if (roots.length === 0 || roots.some((root) => /\^\(1\/3\)|\d{7,}/.test(root) || root.length > 60)) return DECLINED;
  if (!roots.every((root) => isZero(`(${zeroForm})`.replaceAll(variable, `(${root})`)))) return DECLINED;

  let pair: { answer: string; latex: string } | null = null;
  const steps = [`Bring every term to one side: ${plain(zeroForm)} = 0.`];
  if (degree === 1) {
    steps.push(
      `This is linear in ${variable}: collect the ${variable} terms on one side and the numbers on the other.`,
    );
    steps.push(`Divide by the coefficient of ${variable}: ${variable} = ${plain(roots[0] as string)}.`);
  } else if (degree === 2) {
    const [c, b, a] = vectorElements(nerdamer.coeffs(zeroForm, variable)).map(String) as [string, string, string];
    const discriminant = nerdamer(`(${b})^2-4*(${a})*(${c})`).toString();
    // Irrational or complex roots come in pairs: written as one centre ± one radical, as students learn them.
    if (roots.length === 2 && roots.some((root) => /sqrt|\bi\b/.test(root))) {
      const isNegative = Number(nerdamer(discriminant).evaluate().text('decimals')) < 0;
      const center = nerdamer(`-(${b})/(2*(${a}))`).toString();
      const half = nerdamer(`sqrt(abs(${discriminant}))/(2*abs(${a}))${isNegative ? '*i' : ''}`).toString();
      const isCentered = center === '0';
      pair = {
        answer: `${variable} = ${isCentered ? '' : `${plain(center)} `}±${isCentered ? '' : ' '}${plain(half)}`,
        latex: `${variable} = ${isCentered ? '' : `${tex(center)} `}\\pm ${tex(half)}`,
      };
    }
    steps.push(`It is quadratic with a = ${a}, b = ${b}, c = ${c}.`);
    const kind = Number(nerdamer(discriminant).evaluate().text('decimals'));
    steps.push(
      `Discriminant b² − 4ac = ${discriminant}: ${
        kind > 0
          ? 'positive, so two real roots'
          : kind === 0
            ? 'zero, so one repeated root'
            : 'negative, so two complex roots'
      }.`,
    );
    steps.push(`Quadratic formula ${variable} = (−b ± √(b² − 4ac)) / 2a gives ${roots.map(plain).join(' and ')}.`);
  } else {
    steps.push(`It is a polynomial of degree ${degree}: factor it and set each factor to zero.`);
  }
  steps.push(`Check: substituting each value back makes both sides equal.`);
  return {
    solved: true,
    operation: 'equation',
    answer: pair?.answer ?? roots.map((root) => `${variable} = ${plain(root)}`).join(', '),
    latex: pair?.latex ?? roots.map((root) => `${variable} = ${tex(root)}`).join(',\\quad '),
    steps,
  };
}

function system(equations: string[]): MathAnswer {
  if (equations.length < 2 || equations.length > 4 || !equations.every((e) => e.split('=').length === 2)) {
    return DECLINED;
  }
  let pairs: [string, unknown][];
  try {
    // A copy: solveEquations rewrites the array it is given.
    pairs = nerdamer.solveEquations([...equations]) as unknown as [string, unknown][];
  } catch {
    return DECLINED; // no single solution (parallel lines, too few equations)
  }
  if (!Array.isArray(pairs) || pairs.length === 0) return DECLINED;
  const values = pairs.map(([name, value]) => [name, nerdamer(String(value)).toString()] as const);
  const check = equations.every((eq) => {
    const [left, right] = eq.split('=') as [string, string];
    let difference = `(${left})-(${right})`;
    for (const [name, value] of values) difference = difference.replaceAll(name, `(${value})`);
    return isZero(difference);
  });
  if (!check) return DECLINED;
  const answer = values.map(([name, value]) => `${name} = ${plain(value)}`).join(', ');
  return {
    solved: true,
    operation: 'system',
    answer,
    latex: values.map(([name, value]) => `${name} = ${tex(value)}`).join(',\\quad '),
    steps: [
      `The equations: ${equations.join('; ')}.`,
      'Eliminate one unknown: add or subtract multiples of the equations so that it cancels, and solve for the other.',
      `Substitute back to find the rest: ${answer}.`,
      'Check: the values satisfy every equation.',
    ],
  };
}

function derivative(expression: string): MathAnswer {
  const variable = mainVariable(expression);
  const result = nerdamer.diff(expression, variable).toString();
  const simplified = nerdamer.simplify(result).toString();
  const best = simplified.length <= result.length ? simplified : result;
  const usesProduct = /\)\s*\*|\*\s*\w+\(/.test(expression) && /[a-z]\(/.test(expression);
  return {
    solved: true,
    operation: 'derivative',
    answer: plain(best),
    latex: `\\frac{d}{d${variable}}\\left(${tex(expression)}\\right) = ${tex(best)}`,
    steps: [
      `Differentiate term by term with respect to ${variable}.`,
      usesProduct
        ? 'A product of two functions uses the product rule: (uv)′ = u′v + uv′.'
        : `Power rule: the derivative of ${variable}^n is n·${variable}^(n−1); constants give 0.`,
      `Result: ${plain(best)}.`,
    ],
  };
}

function integral(expression: string): MathAnswer {
  const variable = mainVariable(expression);
  const result = nerdamer.integrate(expression, variable).toString();
  // Unresolved integrals, special functions (erf…) and complex units are not answers a student can use.
  if (/integrate|erf|Si|Ci|Ei|\bi\b/.test(result)) return DECLINED;
  if (!isZero(`diff(${result},${variable})-(${expression})`)) return DECLINED;
  return {
    solved: true,
    operation: 'integral',
    answer: `${plain(result)} + C`,
    latex: `\\int ${tex(expression)}\\,d${variable} = ${tex(result)} + C`,
    steps: [
      `Integrate term by term with respect to ${variable}.`,
      `Power rule: the integral of ${variable}^n is ${variable}^(n+1)/(n+1); known integrals for sin, cos and e^${variable}.`,
      `Add the constant of integration C. Check: differentiating ${plain(result)} gives back the integrand.`,
    ],
  };
}

function transform(operation: 'simplify' | 'expand' | 'factor', expression: string): MathAnswer {
  // An equation is not an expression to rewrite ("simplify x = 3" would echo itself back as an answer).
  if (expression.includes('=')) return DECLINED;
  const result = nerdamer(`${operation}(${expression})`).toString();
  if (!isZero(`(${result})-(${expression})`) && operation !== 'simplify') return DECLINED;
  const why = {
    simplify: 'Factor numerator and denominator and cancel common factors.',
    expand: 'Multiply out every bracket and collect like terms.',
    factor: 'Look for two numbers whose product is the constant and whose sum is the middle coefficient.',
  }[operation];
  return {
    solved: true,
    operation,
    answer: plain(result),
    latex: `${tex(expression)} = ${tex(result)}`,
    steps: [why, `Result: ${plain(result)}.`],
  };
}

const COMMANDS: [RegExp, (body: string) => MathAnswer][] = [
  [/^(?:the\s+)?(?:derivative of|differentiate|d\/dx(?: of)?)\s+(.+)$/i, derivative],
  [/^(?:the\s+)?(?:integral of|integrate|antiderivative of|∫)\s*(.+?)(?:\s*d[a-z])?$/i, integral],
  [/^simplify\s+(.+)$/i, (body) => transform('simplify', body)],
  [/^expand\s+(.+)$/i, (body) => transform('expand', body)],
  [/^factori[sz]e\s+(.+)$|^factor\s+(.+)$/i, (body) => transform('factor', body)],
];

function answerExpression(text: string): MathAnswer {
  const percent = percentage(text);
  if (percent.solved) return percent;

  for (const [pattern, solve] of COMMANDS) {
    const match = pattern.exec(text);
    if (match) {
      const body = stripWording(match[1] ?? match[2] ?? '');
      return isPlainMathematics(body) ? solve(body) : DECLINED;
    }
  }

  const withoutSolve = stripWording(text.replace(/^(?:solve for [a-z]|solve)\s*:?\s*/i, ''));
  const equations = withoutSolve
    .replace(/^\d+\s+equations?\s*:?\s*/i, '')
    .replace(/^(?:the\s+)?(?:system|simultaneous equations)\s*:?\s*/i, '')
    .split(/\s*(?:,|;|\band\b)\s*/)
    .filter(Boolean);
  if (equations.length >= 2 && equations.every((e) => e.includes('=') && isPlainMathematics(e))) {
    return system(equations);
  }
  if (!isPlainMathematics(withoutSolve)) return DECLINED;
  if (withoutSolve.includes('=')) return equation(withoutSolve);
  return arithmetic(withoutSolve);
}

/** Answers a math question offline, or declines: never a guess. */
export function solveMathQuestion(question: string): MathAnswer {
  const text = stripWording(normalise(question));
  if (text.length === 0 || text.length > MAX_QUESTION_LENGTH) return DECLINED;
  if (exceedsEngineBounds(text)) return DECLINED; // before the engine computes (10^10)! or 9^9^9 exactly
  try {
    return answerExpression(text);
  } catch {
    return DECLINED; // the engine could not parse or handle it: say so rather than guess
  } finally {
    nerdamer.flush(); // nerdamer keeps every expression it parsed; drop them so a long-running server does not grow
  }
}
