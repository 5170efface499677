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
  ])('leaves ordinary text alone: %s', (line) => {
    expect(maskCredentials(line)).toBe(line);
    expect(holdsCredential(line)).toBe(false);
  });
});
