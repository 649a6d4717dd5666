/**
 * The one web global the pure logic uses beyond ECMAScript: WHATWG URL, which the service worker, the pages and Node
 * all have. Declared for tsconfig.pure.json alone (tsconfig.json takes the DOM's): only what the state reads.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly hash: string;
  readonly href: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
  readonly protocol: string;
  readonly host: string;
  readonly username: string;
  readonly password: string;
  readonly search: string;
}
