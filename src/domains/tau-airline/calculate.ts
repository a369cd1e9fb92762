/**
 * Evaluates an arithmetic expression the way tau-bench's `calculate` tool does with Python's `eval`: digits,
 * `+ - * / ( ) .` and spaces only; integers stay integers except through `/`; the result is rounded to 2 decimals and
 * printed as Python prints it (`255.0` for a float, `255` for an integer).
 */

interface PyNumber {
  value: number;
  float: boolean;
}

class ExpressionError extends Error {}

function parse(expression: string): PyNumber {
  const tokens = expression.match(/\d+\.\d*|\.\d+|\d+|[-+*/()]/g) ?? [];
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];

  function primary(): PyNumber {
    const token = next();
    if (token === undefined) throw new ExpressionError('invalid syntax');
    if (token === '(') {
      const inner = sum();
      if (next() !== ')') throw new ExpressionError("'(' was never closed");
      return inner;
    }
    if (token === '-' || token === '+') {
      const operand = primary();
      return { value: token === '-' ? -operand.value : operand.value, float: operand.float };
    }
    if (/^[\d.]/.test(token)) return { value: Number(token), float: token.includes('.') };
    throw new ExpressionError('invalid syntax');
  }

  function product(): PyNumber {
    let left = primary();
    while (peek() === '*' || peek() === '/') {
      const operator = next();
      const right = primary();
      if (operator === '/') {
        if (right.value === 0) throw new ExpressionError('division by zero');
        left = { value: left.value / right.value, float: true };
      } else {
        left = { value: left.value * right.value, float: left.float || right.float };
      }
    }
    return left;
  }

  function sum(): PyNumber {
    let left = product();
    while (peek() === '+' || peek() === '-') {
      const operator = next();
      const right = product();
      left = {
        value: operator === '+' ? left.value + right.value : left.value - right.value,
        float: left.float || right.float,
      };
    }
    return left;
  }

  const result = sum();
  if (position !== tokens.length) throw new ExpressionError('invalid syntax');
  return result;
}

function pythonFloat(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  return String(value);
}

/**
 * Runs the `calculate` tool.
 *
 * @example
 * ```ts
 * calculate('(100 + 155) * 1'); // '255'
 * calculate('510 / 2'); // '255.0'
 * ```
 */
export function calculate(expression: string): string {
  if (!/^[0-9+\-*/(). ]*$/.test(expression)) return 'Error: invalid characters in expression';
  try {
    const result = parse(expression);
    if (!result.float) return String(result.value);
    return pythonFloat(Number(result.value.toFixed(2)));
  } catch (error) {
    return `Error: ${(error as Error).message}`;
  }
}
