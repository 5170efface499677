import { describe, expect, it } from 'vitest';
import { yaml } from '../../../helpers/load-yaml.js';
import { brief, check, TRIGGER } from '../../../helpers/rules.js';

const KEY = '7c1e4b9a2d6f8e0c3a5b7d9f1e2c4a6b';

const text = yaml`
  name: order shipped
  description: Call the API with ApiKey ${KEY}
  notificationGroupId: 64b7f0a1c2d3e4f5a6b7c8d9
  tags: [orders, Zk3mQ9x_Lp2vR8tW0yB5nC7hJ4]
  steps:
    - name: inbox
      template: {type: in_app, content: "Order {{orderNumber}} shipped"}
`;

describe('credential-in-definition', () => {
  it('reports every value that looks like a credential, at the value, without quoting it', () => {
    const found = check(text + TRIGGER, {}, 'credential-in-definition');
    expect(found.map((d) => [d.pointer, d.line, d.severity])).toEqual([
      ['/description', 2, 'error'],
      ['/tags/1', 4, 'error'],
    ]);
    for (const d of found) {
      expect(d.message).not.toContain(KEY);
      expect(d.message).not.toContain('hJ4');
    }
    expect(brief(found[0]!).message).toMatch(/^description looks like it holds a credential \(not shown\)/);
  });

  it('accepts ordinary values: ids, identifiers, templates', () => {
    const clean = text.replace(/ with ApiKey \w+/, '').replace(', Zk3mQ9x_Lp2vR8tW0yB5nC7hJ4', '');
    expect(check(clean + TRIGGER, {}, 'credential-in-definition')).toEqual([]);
  });
});
