/**
 * The WHATWG URL class, present in every runtime the contracts run in (Node ≥ 20 and browsers).
 * The contracts compile without DOM or Node typings, so only what they use is declared here.
 */
declare class URL {
  constructor(input: string, base?: string);
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly searchParams: { get(name: string): string | null };
}
