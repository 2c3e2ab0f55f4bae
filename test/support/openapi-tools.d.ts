/**
 * The few parts of openapi-to-postmanv2 and newman that test/openapi-postman.test.ts uses: neither
 * ships its own types, and the DefinitelyTyped packages lag a major version behind.
 */
declare module 'openapi-to-postmanv2' {
  interface ConversionResult {
    result: boolean;
    reason?: string;
    output?: Array<{ type: string; data: unknown }>;
  }
  const Converter: {
    convert(input: { type: 'string' | 'json' | 'file'; data: unknown }, options: Record<string, unknown>, callback: (err: Error | null, result: ConversionResult) => void): void;
  };
  export default Converter;
}

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
