import { expect, type Page } from '@playwright/test';

/**
 * What a phone user sees cut (the 390 px sweep of the runner's, the entries' and the pickup's
 * pages, issues 38–40): the page scrolling sideways, or a visible text cut by its box — a label,
 * a button, a select's value or a heading ending in "…" or clipped — each named by its text.
 * Tables that scroll inside their own region and inputs' typed values are not counted.
 */
export async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1)
      cut.push(`the page scrolls sideways (${root.scrollWidth} > ${window.innerWidth} px)`);
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (
        !visible(el) ||
        el.closest('[role=region][tabindex], [data-scrolls], table, svg, [aria-hidden=true]')
      )
        continue;
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (!own) continue;
      const style = getComputedStyle(el);
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (clips && el.scrollWidth > el.clientWidth + 1)
        cut.push(`"${el.textContent!.trim().slice(0, 60)}" (${el.scrollWidth} > ${el.clientWidth} px)`);
    }
    // A placeholder wider than its input (it is cut without an ellipsis: "Numéro de doss").
    const canvas = document.createElement('canvas').getContext('2d')!;
    for (const input of document.body.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (!visible(input) || input.value) continue;
      const style = getComputedStyle(input);
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room =
        input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const width = canvas.measureText(input.placeholder).width;
      if (width > room + 1) cut.push(`placeholder "${input.placeholder}" (${Math.ceil(width)} > ${room} px)`);
    }
    return cut;
  });
}

/** Asserts nothing on the page is cut or scrolls sideways (see `cutTexts`). */
export async function expectFits(page: Page, where: string) {
  expect(await cutTexts(page), `cut on ${where}`).toEqual([]);
}
