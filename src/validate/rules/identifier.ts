import { slugifyV1, slugifyV2 } from '../../derive/slug.js';
import { triggerOf } from './derived.js';
import { IDENTIFIER_POINTER, identifierOf } from './identifier-duplicate.js';
import type { Rule } from './types.js';
import { quote } from './walk.js';

const IDENTIFIER_FORMAT = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A name that slugs to `identifier` on both server generations, if the plain spelling does. */
function nameFor(identifier: string): string | undefined {
  const name = identifier.replace(/-/g, ' ');
  return slugifyV1(name) === identifier && slugifyV2(name) === identifier ? name : undefined;
}

export const identifierFormat: Rule = {
  code: 'identifier-format',
  defaultSeverity: 'error',
  description: 'triggers[0].identifier must be lower-case letters and digits separated by single hyphens',
  check(ctx) {
    const identifier = identifierOf(ctx.workflow);
    if (identifier === undefined || IDENTIFIER_FORMAT.test(identifier)) return;
    const fromName = slugifyV2(ctx.workflow.name);
    const suggestion = fromName !== '' ? fromName : slugifyV2(identifier);
    const example = suggestion !== '' ? `: use \`${suggestion}\`` : '';
    ctx.report(
      IDENTIFIER_POINTER,
      `triggers[0].identifier ${quote(identifier)} must be lower-case letters and digits separated by single ` +
        `hyphens, the form the service derives from names and applications trigger with${example}.`,
    );
  },
};

export const identifierNameMismatch: Rule = {
  code: 'identifier-name-mismatch',
  defaultSeverity: 'warning',
  description:
    'triggers[0].identifier should equal the identifier the service derives from name on every server',
  check(ctx) {
    const identifier = identifierOf(ctx.workflow);
    if (identifier === undefined || !IDENTIFIER_FORMAT.test(identifier)) return;
    const { name } = ctx.workflow;
    // The trigger's identifiers are the slugs of the name (the other rules derive the trigger anyway).
    const { identifierV1: v1, identifierV2: v2 } = triggerOf(ctx.workflow);
    if (v1 === '' || v2 === '') return; // name-slug-empty says why
    if (v1 === identifier && v2 === identifier) return;
    const rename = nameFor(identifier);
    const renameTo = rename === undefined ? 'rename the workflow' : `rename the workflow to ${quote(rename)}`;
    if (v1 === v2) {
      ctx.report(
        IDENTIFIER_POINTER,
        `the service will create \`${v1}\` from name ${quote(name)}, not \`${identifier}\`; wfsync would report ` +
          `a conflict after creating, so ${renameTo} or change the identifier to \`${v1}\`.`,
      );
      return;
    }
    const sameEverywhere =
      'name it with lower-case words separated by spaces to get the same identifier on every server';
    if (identifier === v1 || identifier === v2) {
      const other = identifier === v1 ? `\`${v2}\` on newer servers` : `\`${v1}\` on older servers`;
      ctx.report(
        IDENTIFIER_POINTER,
        `the service will create ${other} from name ${quote(name)}, not \`${identifier}\` (the two server ` +
          `generations slug this name differently); ${sameEverywhere}${rename === undefined ? '' : `: ${quote(rename)}`}.`,
      );
      return;
    }
    ctx.report(
      IDENTIFIER_POINTER,
      `the service will create \`${v1}\` (older servers) / \`${v2}\` (newer servers) from name ${quote(name)}, ` +
        `not \`${identifier}\`; wfsync would report a conflict after creating, so ${renameTo} or change the ` +
        `identifier (${sameEverywhere}).`,
    );
  },
};

export const nameSlugEmpty: Rule = {
  code: 'name-slug-empty',
  defaultSeverity: 'error',
  description: 'name must contain an ASCII letter or digit so the service can derive an identifier from it',
  check(ctx) {
    const { name } = ctx.workflow;
    const { identifierV1: v1, identifierV2: v2 } = triggerOf(ctx.workflow);
    if (v1 !== '' && v2 !== '') return;
    const where = v1 === '' && v2 === '' ? '' : v1 === '' ? ' on older servers' : ' on newer servers';
    ctx.report(
      '/name',
      `name ${quote(name)} has no letter or digit the service can turn into an identifier, so it cannot ` +
        `derive one${where}: add ASCII letters or digits to the name.`,
    );
  },
};
