import { type AdviceContext, keyName } from './advice.js';
import { summarize } from './error-body.js';

/** 401/403 in words, from what the service said. */
export function explainAuth(
  status: number,
  messages: readonly string[],
  context: AdviceContext,
): { detail: string; advice: string } {
  const said = messages.join(' ');
  const key = keyName(context);
  if (/Missing authorization header|Invalid authentication scheme/i.test(said)) {
    return {
      detail: `the service did not receive the API key (it said: ${said})`,
      advice: 'check that nothing between wfsync and the service drops or replaces the Authorization header',
    };
  }
  if (/API Key not found/i.test(said)) {
    const which = context.apiKeyEnv === undefined ? 'the API key' : `the API key in ${key}`;
    return {
      detail: `${which} was rejected`,
      advice: `check that ${key} holds a key of the environment this target syncs to`,
    };
  }
  if (/only allowed in Development environment/i.test(said)) {
    return {
      detail: 'creating workflows needs a Development-environment key, and this one belongs to Production',
      advice: `set ${key} to the Development environment's key`,
    };
  }
  return {
    detail: `${status === 403 ? 'access denied' : 'authentication failed'}${said === '' ? '' : `: ${summarize(messages)}`}`,
    advice: `check ${key}`,
  };
}
