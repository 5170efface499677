import { describe, expect, it } from 'vitest';
import { slugifyV1, slugifyV2 } from '../../../src/derive/slug.js';

describe('slugifyV1 (older server: slugify {lower, strict})', () => {
  it.each([
    ['Order Shipped', 'order-shipped'],
    ['orderShipped', 'ordershipped'],
    ['snake_case', 'snakecase'],
    ['XMLHttpRequest', 'xmlhttprequest'],
    ['a.b.c', 'abc'],
    ['  --Hello, World!--  ', 'hello-world'],
    ['Order #42 shipped', 'order-42-shipped'],
    ['2fa code 123', '2fa-code-123'],
    ['a--b', 'a-b'],
    ["Don't stop", 'dont-stop'],
    ['foo & bar', 'foo-and-bar'],
    ['100% done', '100percent-done'],
    ['Déjà Vu', 'deja-vu'],
  ])('%j → %j', (name, slug) => {
    expect(slugifyV1(name)).toBe(slug);
  });
});

describe('slugifyV2 (newer server: decamelizes)', () => {
  it.each([
    ['Order Shipped', 'order-shipped'],
    ['orderShipped', 'order-shipped'],
    ['snake_case', 'snake-case'],
    ['XMLHttpRequest', 'xml-http-request'],
    ['OrderV2Shipped', 'order-v2-shipped'],
    ['a.b.c', 'a-b-c'],
    ['  --Hello, World!--  ', 'hello-world'],
    ['Order #42 shipped', 'order-42-shipped'],
    ['2fa code 123', '2fa-code-123'],
    ['a--b', 'a-b'],
    ["Don't stop", 'dont-stop'],
    ['foo & bar', 'foo-and-bar'],
    ['100% done', '100-done'],
    ['Déjà Vu', 'deja-vu'],
  ])('%j → %j', (name, slug) => {
    expect(slugifyV2(name)).toBe(slug);
  });
});

describe('both generations', () => {
  it.each(['日本語', 'テストメール', '🚀🚀', '---', '', '   ', '!!!'])(
    '%j has nothing to slug → empty',
    (name) => {
      expect(slugifyV1(name)).toBe('');
      expect(slugifyV2(name)).toBe('');
    },
  );

  it('keeps the ASCII part of a mixed-script name', () => {
    expect(slugifyV1('Test テスト')).toBe('test');
    expect(slugifyV2('Test テスト')).toBe('test');
  });

  it('transliterates scripts they know (so "no ASCII letters" alone does not mean empty)', () => {
    expect(slugifyV1('Привет мир')).toBe('privet-mir');
    expect(slugifyV2('Привет мир')).toBe('privet-mir');
  });

  it('agree on lower-case words separated by spaces and differ on camelCase and snake_case', () => {
    for (const name of ['order shipped', 'Welcome email 2', 'password reset']) {
      expect(slugifyV1(name)).toBe(slugifyV2(name));
    }
    expect(slugifyV1('welcomeEmail')).not.toBe(slugifyV2('welcomeEmail'));
    expect(slugifyV1('welcome_email')).not.toBe(slugifyV2('welcome_email'));
  });

  it('trim leading and trailing separators', () => {
    expect(slugifyV1('_leading and trailing_')).toBe('leading-and-trailing');
    expect(slugifyV2('_leading and trailing_')).toBe('leading-and-trailing');
    expect(slugifyV1('-x-')).toBe('x');
    expect(slugifyV2('-x-')).toBe('x');
  });
});
