import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsCredential, maskCredentials } from '../../src/credentials.js';

describe('maskCredentials', () => {
  it.each([
    [
      'headers: {Authorization: "ApiKey 0123456789abcdef0123456789abcdef"}',
      '0123456789abcdef0123456789abcdef',
    ],
    [
      'auth: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
    ],
    ['auth: bearer short', 'short'],
    ['key: wfs_local_9f86d081884c7d659a2feaa0c55ad015', '9f86d081884c7d659a2feaa0c55ad015'],
    ['token: Zk3mQ9x_Lp2vR8tW0yB5nC7hJ4', 'Zk3mQ9x_Lp2vR8tW0yB5nC7hJ4'],
    ['url: https://hooks.example.com/sk_live_51HqLyjWDarjtT1zdp7dcXYZ', 'sk_live_51HqLyjWDarjtT1zdp7dcXYZ'],
    ['img: /img/3f9aD81kQz0pLm27xYv5.png', '/img/3f9aD81kQz0pLm27xYv5.png'],
  ])('hides the credential in %s, keeping every column', (line, credential) => {
    const masked = maskCredentials(line);
    expect(masked).not.toContain(credential);
    expect(masked).not.toContain(credential.slice(-4));
    expect(masked).toHaveLength(line.length);
    expect(masked.replace(/\*+/, credential)).toBe(line);
    expect(holdsCredential(line)).toBe(true);
  });

  it.each([
    'notificationGroupId: 0123456789abcdef01234567',
    'identifier: weekly-activity-digest-notification',
    'content: Order {{orderNumber}} has shipped with {{carrier}}.',
    'url: /orders/{{orderNumber}}/tracking',
    'OrderShippedNotificationWorkflow',
    'sendAt: 2024-10-01T12:00:00.000Z',
    'identifier: weekly-digest-2024-report-v2',
    'name: OrderShipped2024Notification',
    'uuid: 123e4567-e89b-12d3-a456-426614174000',
    'path: /v1/workflows/65f0c0ffee00000000a0b1c2',
    'content: { file: ./order-shipped.step-2.title.txt }',
    'logo: https://cdn.example.com/img/logo-2x.png',
    'pointer: /steps/1/variants/0/template/content',
  ])('leaves ordinary text alone: %s', (line) => {
    expect(maskCredentials(line)).toBe(line);
    expect(holdsCredential(line)).toBe(false);
  });
});

describe('holdsCredential', () => {
  it('answers exactly whether maskCredentials would change the text (its quick test never says no wrongly)', () => {
    // Pieces that make up credentials, near misses and ordinary text, so that short runs, scheme words and hex
    // runs of every length around the thresholds meet.
    const piece = fc.constantFrom(
      'ApiKey ',
      'bearer\t',
      'BEARER',
      'apikey',
      ' ',
      '/',
      '.',
      '-',
      '_',
      '~',
      '=',
      '+',
      '{{',
      '}}',
      '"',
      ':',
      'a',
      'Z',
      '7',
      'f',
      '0123456789abcdef',
      'Zk3mQ9x_Lp2vR8',
      'tW0yB5nC7hJ4',
      'Zk3mQ9xLp2vR8tW0yB5n',
      'order-shipped',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(holdsCredential(text)).toBe(maskCredentials(text) !== text);
      }),
      { numRuns: 2000 },
    );
  });
});
