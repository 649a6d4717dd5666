/**
 * What leaves the browser (an alert, "Copy diagnostics") with its secrets taken out: an error line or a Colab message
 * may hold a URL with a token, an API key in an environment variable's value, a Hugging Face or OpenAI token. Query
 * strings, credentials in URLs, the values of secret-named keys, tokens of known shapes and long random-looking strings
 * become REDACTED; ordinary words, numbers, paths and identifiers stay, so the line still says what happened.
 */

export const REDACTED = '[redacted]';

/** Characters that end a URL's query or fragment besides white space: the quotes and brackets around it. */
const URL_END = `\\s"'<>()\\[\\]{}`;

/** `scheme://user:password@`: the credentials go, the scheme stays. */
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** A URL's query and fragment (`?…`, `#…` after `scheme://`): all of it, whatever it holds. */
const URL_TAIL = new RegExp(`(\\b[a-z][a-z0-9+.-]*://[^${URL_END}?#]*)([?#][^${URL_END}]*)`, 'gi');
/** A query string anywhere else (`host/path?key=value`, `?token=…`): a `?` followed by a key and `=`. */
const BARE_QUERY = new RegExp(`\\?[\\w.~%-]+=[^${URL_END}]*`, 'g');
/** `Authorization: Bearer …`: the scheme word stays; a plain word after it (`Basic Authentication`) is no secret. */
const AUTH_SCHEME = /\b([Bb]earer|Basic)(\s+)([\w.~+/=-]{8,})/g;
/**
 * `HF_TOKEN=…`, `api_key: …`, `"password": "…"`: a key that ends in a secret's name, then its value (6 characters at
 * least: `pad_token: [PAD]` and `eos_token=</s>` are tokenizer settings, not secrets).
 */
const SECRET_NAME = [
  'token|secret|password|passwd|pwd|auth|authorization|credentials?|signature',
  'api[_-]?key|apikey|access[_-]?key|private[_-]?key',
].join('|');
const SECRET_VALUE = new RegExp(
  `\\b([\\w-]*?(?:${SECRET_NAME})["']?\\s*[=:]\\s*["']?)(?!(?:Bearer|Basic)\\s)([^\\s"',;&]{6,})`,
  'gi',
);

/** Tokens whose shape names them; the part that says which kind stays (`hf_[redacted]`). */
const KNOWN_TOKENS: readonly RegExp[] = [
  /\b(hf_)[A-Za-z0-9]{20,}/g,
  /\b(sk-)(?:proj-|ant-|svcacct-|live-|test-)?[A-Za-z0-9_-]{16,}/g,
  /\b([sr]k_(?:live|test)_)[A-Za-z0-9]{16,}/g,
  /\b(gh[pousr]_)[A-Za-z0-9]{30,}/g,
  /\b(github_pat_)[A-Za-z0-9_]{30,}/g,
  /\b(xox[abposr]-)[A-Za-z0-9-]{10,}/g,
  /\b(glpat-)[A-Za-z0-9_-]{20,}/g,
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\b(AIza)[0-9A-Za-z_-]{35}/g,
  /\b(ya29\.)[0-9A-Za-z_-]{20,}/g,
  /\b(tk_)[a-z0-9]{20,}/g,
  // A JSON web token: three base64url parts, the first two JSON objects.
  /\b(eyJ)[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/g,
  // A Telegram bot token: the bot's number, a colon, 35 characters.
  /\b(\d{6,12}:)[A-Za-z0-9_-]{30,}/g,
];

/** Runs that may be a key: standard base64 (judged whole, before its `+` and `/` split it into words)… */
const BASE64_RUN = /[A-Za-z0-9+/]{32,}={0,2}/g;
/** …then base64url, hex and ids (letters, digits, `_`, `-`). */
const WORD_RUN = /[A-Za-z0-9_-]{20,}/g;

/**
 * Whether a run of key characters looks generated rather than written: 32 hex digits or more (a hash, an API key),
 * or letters and digits that switch between digit, capital and small letter at 2 of every 5 characters at least
 * (random base62 switches at 3 of 5; `ResNet50ForImageClassification` at 1 of 3, `CUDA_VISIBLE_DEVICES` never).
 * Of random keys of letters and digits, this leaves about 1 in 30 of 24 characters, 1 in 125 of 32, 1 in 1,000 of 40.
 */
export function looksRandom(run: string): boolean {
  const chars = run.replace(/[^A-Za-z0-9]/g, '');
  if (chars.length < 20 || !/\d/.test(chars) || !/[A-Za-z]/.test(chars)) return false;
  if (chars.length >= 32 && /^[0-9a-f]+$/i.test(chars)) return true;
  let switches = 0;
  for (let i = 1; i < chars.length; i++) if (kind(chars.charAt(i)) !== kind(chars.charAt(i - 1))) switches++;
  // A long run can be held to less: chance alone keeps few random keys of 32 characters below 7 switches in 20.
  return switches / (chars.length - 1) >= (chars.length >= 32 ? 0.35 : 0.4);
}

/**
 * A standard base64 key, not a path: a path's segments include words (`content/drive/MyDrive/…`), whose random
 * segments alone are taken out afterwards.
 */
function isBase64Key(run: string): boolean {
  const words = run.split('/').filter((segment) => /^[A-Za-z]{4,}$/.test(segment));
  return /[+/]/.test(run) && words.length < 2 && looksRandom(run);
}

function kind(char: string): number {
  if (char >= '0' && char <= '9') return 0;
  return char >= 'a' && char <= 'z' ? 1 : 2;
}

export function redactSecrets(text: string): string {
  let out = text.replace(CREDENTIALS, `$1${REDACTED}@`);
  out = out.replace(URL_TAIL, (_, head: string, tail: string) => `${head}${tail.charAt(0)}${REDACTED}`);
  out = out.replace(BARE_QUERY, `?${REDACTED}`);
  out = out.replace(AUTH_SCHEME, (all, scheme: string, space: string, value: string) =>
    /^[A-Z]?[a-z]+$/.test(value) ? all : `${scheme}${space}${REDACTED}`,
  );
  out = out.replace(SECRET_VALUE, `$1${REDACTED}`);
  for (const pattern of KNOWN_TOKENS) out = out.replace(pattern, `$1${REDACTED}`);
  out = out.replace(BASE64_RUN, (run) => (isBase64Key(run) ? REDACTED : run));
  return out.replace(WORD_RUN, (run) => (looksRandom(run) ? REDACTED : run));
}
