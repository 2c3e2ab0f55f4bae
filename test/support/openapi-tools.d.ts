/**
 * The few parts of newman that test/openapi-postman.test.ts uses: newman ships no types, and the
 * DefinitelyTyped package lags a major version behind.
 */
declare module 'newman' {
  export interface NewmanExecution {
    item: { name: string };
    request: { method: string; url: { toString(): string; getPath(): string } };
    response?: { code: number; stream?: Buffer };
    requestError?: Error;
  }
  export interface NewmanRunSummary {
    run: { executions: NewmanExecution[]; failures: Array<{ error: Error }> };
  }
  export function run(options: Record<string, unknown>, callback: (err: Error | null, summary: NewmanRunSummary) => void): unknown;
  const newman: { run: typeof run };
  export default newman;
}
