import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * The pictures in the docs (docs/images/*.png), taken by the Chromium tests that check what they show. A normal run
 * only asserts that the pictured element is there and visible (so a change that breaks the picture breaks a test);
 * `WFSYNC_UPDATE_DOC_IMAGES=1` (`npm run docs:images`) also writes the PNG. test/unit/docs/images.test.ts keeps
 * every picture referenced by a page and every referenced picture present.
 */
export const DOC_IMAGES = join(ROOT, 'docs/images');

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
  if (!updatingDocImages()) return;
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
