import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * The pictures in the docs (docs/images/*.png), taken by the Chromium tests that check what they show. A normal run
 * asserts that the pictured element is there and visible, and that its text is the text recorded when the picture
 * was taken (test/fixtures/doc-images/<name>.txt): a change to what a picture shows fails the test until the
 * picture is taken again. Pixels are not compared (fonts and Chromium versions differ between machines).
 * `WFSYNC_UPDATE_DOC_IMAGES=1` (`npm run docs:images`) writes the PNG and its text. test/unit/docs/images.test.ts
 * keeps every picture referenced by a page and every referenced picture present.
 */
export const DOC_IMAGES = join(ROOT, 'docs/images');
const DOC_IMAGE_TEXTS = join(ROOT, 'test/fixtures/doc-images');

/** The viewport every docs picture is taken at: small enough for a small PNG, wide enough to read. */
export const DOC_VIEWPORT = { width: 1200, height: 760 };

export const updatingDocImages = (): boolean => process.env.WFSYNC_UPDATE_DOC_IMAGES === '1';

/**
 * The docs picture `docs/images/<name>.png` of the element `selector` on `page`: asserted visible (a box with an
 * area inside the page); written only when updating. `clipHeight` cuts a tall element to its top.
 */
export async function docImage(
  page: Page,
  selector: string,
  name: string,
  clipHeight?: number,
): Promise<void> {
  const element = await page.waitForSelector(selector, { visible: true });
  const box = await element!.boundingBox();
  expect(box, `${selector} has no box`).not.toBeNull();
  expect(box!.width).toBeGreaterThan(100);
  expect(box!.height).toBeGreaterThan(100);
  // What the picture shows, as text: HTML's rendered text (collapsed parts left out), an SVG's labels.
  const text = await element!.evaluate((e) => {
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a picture shows, not the DOM's
    if ('innerText' in e) return String(e.innerText);
    return [...e.querySelectorAll('text, foreignObject')]
      .map((label) => label.textContent?.trim() ?? '')
      .filter((label) => label !== '')
      .join('\n');
  });
  const recorded = join(DOC_IMAGE_TEXTS, `${name}.txt`);
  if (!updatingDocImages()) {
    expect(existsSync(recorded), `${recorded}: npm run docs:images`).toBe(true);
    expect(text, `docs/images/${name}.png shows something else now: npm run docs:images`).toBe(
      readFileSync(recorded, 'utf8'),
    );
    return;
  }
  mkdirSync(DOC_IMAGE_TEXTS, { recursive: true });
  writeFileSync(recorded, text);
  mkdirSync(DOC_IMAGES, { recursive: true });
  // Whole pixels, so a box at a fractional offset gives the same PNG run after run.
  const x = Math.floor(box!.x);
  const y = Math.floor(box!.y);
  const width = Math.ceil(box!.x + box!.width) - x;
  const height = Math.min(Math.ceil(box!.y + box!.height) - y, clipHeight ?? Number.POSITIVE_INFINITY);
  await page.screenshot({
    path: join(DOC_IMAGES, `${name}.png`),
    clip: { x, y, width, height },
    captureBeyondViewport: true,
  });
}
