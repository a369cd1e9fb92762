import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

/** Relative luminance of a `#rrggbb` colour (WCAG 2). */
function luminance(hex: string): number {
  const [red = 0, green = 0, blue = 0] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

const contrast = (first: string, second: string) => {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

describe('review page colours', () => {
  it('give every rule that sets a text colour and a background a contrast of at least 4.5:1', async () => {
    const css = await readFile(new URL('./assets/review.css', import.meta.url), 'utf8');
    const variables = new Map(
      [...css.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})/gi)].map(([, name = '', value = '']) => [name, value]),
    );
    const resolve = (value: string) =>
      value.replace(/var\((--[\w-]+)\)/, (_, name: string) => variables.get(name) ?? name);
    const pairs: [string, string, string][] = [['body', variables.get('--text') ?? '', variables.get('--page') ?? '']];
    for (const [, selector = '', body = ''] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      const color = /(?:^|[;\s])color:\s*([^;]+);/.exec(body)?.[1];
      const background = /background:\s*([^;]+);/.exec(body)?.[1];
      if (color !== undefined && background !== undefined) {
        pairs.push([selector.trim(), resolve(color.trim()), resolve(background.trim())]);
      }
    }
    assert.ok(pairs.length >= 10, `found ${pairs.length} rules`);
    for (const [selector, color, background] of pairs) {
      assert.match(color, /^#[0-9a-f]{6}$/i, selector);
      assert.match(background, /^#[0-9a-f]{6}$/i, selector);
      assert.ok(contrast(color, background) >= 4.5, `${selector}: ${color} on ${background}`);
    }
  });
});
