const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not searched for: replacing every "a" would make messages unreadable. */
const MIN_SECRET_LENGTH = 4;

/**
 * Remove every occurrence of each secret from `text`, and any `ApiKey <token>` credential whatever the token.
 * The safety net under every error message and event: the client never puts the key into text on purpose.
 * Text only, never a walk of the service's data: nothing here recurses.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    // Also its URL-encoded form, in case it travelled through a URL or a query string.
    for (const form of new Set([secret, encoded(secret)])) result = removeAll(result, form);
  }
  return result.replace(/\b(ApiKey)\s+(?!\[REDACTED\])[^\s"',;]+/gi, `$1 ${REDACTED}`);
}

function removeAll(text: string, secret: string): string {
  let result = text;
  // Repeat: a marker next to leftover text can spell the secret again (a secret like `D]ab`).
  for (let round = 0; round < 8 && result.includes(secret); round++)
    result = result.split(secret).join(REDACTED);
  // A secret that is part of the marker itself: delete it outright (each pass shortens the text, so this ends).
  while (result.includes(secret)) result = result.split(secret).join('');
  return result;
}

function encoded(secret: string): string {
  try {
    return encodeURIComponent(secret);
  } catch {
    return secret; // a lone surrogate cannot be encoded, so it cannot have travelled encoded either
  }
}
