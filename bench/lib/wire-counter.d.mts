// Types for the tests that import the counter (test/e2e/keyed-reads.e2e-spec.ts).
export interface WireCounter {
  count: { statements: number };
  port: number;
  close(): Promise<void>;
}
export function wireCounter(listenPort: number, target?: { host: string; port: number }): Promise<WireCounter>;
