/**
 * Whether `url` is one that a manifest match pattern (`<scheme>://<host><path>`) names, read as Chrome and Firefox
 * read content-script matches: scheme `*` is http or https; host `*.example.com` is example.com and its subdomains;
 * the path pattern, with `*` for any run of characters, covers the URL's path and query, not its fragment. Anything
 * else (`<all_urls>`, file URLs) matches nothing here.
 */
export function matchesPattern(pattern: string, url: string): boolean {
  const parts = /^(\*|https?):\/\/(\*|(?:\*\.)?[^/*]+)(\/.*)$/.exec(pattern);
  const target = URL.canParse(url) ? new URL(url) : null;
  if (!parts || !target) return false;
  const [, scheme = '', host = '', path = ''] = parts;
  return (
    schemeMatches(scheme, target.protocol) && hostMatches(host, target.hostname) && globMatches(path, pathOf(target))
  );
}

function schemeMatches(scheme: string, protocol: string): boolean {
  return scheme === '*' ? protocol === 'http:' || protocol === 'https:' : protocol === `${scheme}:`;
}

function hostMatches(host: string, hostname: string): boolean {
  if (host === '*') return true;
  if (!host.startsWith('*.')) return hostname === host;
  const domain = host.slice(2);
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

function pathOf(url: URL): string {
  return url.pathname + url.search;
}

function globMatches(glob: string, text: string): boolean {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(text);
}
