import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripTypes } from './strip-types.ts';

describe('stripTypes', () => {
  it('blanks annotations and type-only imports, keeping every line where it was', () => {
    const source = [
      "import type { Limit } from './limit.ts';",
      "import { check } from './check.ts';",
      'export const limit: Limit = 5 as number;',
      'export function twice<Value>(value: Value): Value[] {',
      '  return [value, value];',
      '}',
    ].join('\n');
    const code = stripTypes(source);
    const lines = code.split('\n');
    assert.equal(lines.length, 6);
    assert.doesNotMatch(code, /Limit|Value|number/);
    assert.equal(lines[1], "import { check } from './check.ts';");
    assert.match(lines[2] ?? '', /^export const limit\s+= 5\s*;$/);
    assert.match(lines[4] ?? '', /^ {2}return \[value, value\];$/);
  });

  it('refuses syntax that is not erasable, as Node does', () => {
    assert.throws(() => stripTypes('export enum Cabin { Economy, Business }'));
  });
});
