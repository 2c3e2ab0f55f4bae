/**
 * The part of busboy 1.x's API the multipart receiver uses (busboy ships no type declarations).
 * https://github.com/mscdex/busboy#api
 */
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  namespace busboy {
    interface Limits {
      fieldNameSize?: number;
      fieldSize?: number;
      fields?: number;
      fileSize?: number;
      files?: number;
      parts?: number;
      headerPairs?: number;
    }
    interface Config {
      headers: IncomingHttpHeaders;
      /** Charset of header parameters (filename="…") that carry none of their own; busboy's default is latin1. */
      defParamCharset?: string;
      defCharset?: string;
      preservePath?: boolean;
      limits?: Limits;
    }
    interface FileInfo {
      filename: string | undefined;
      encoding: string;
      mimeType: string;
    }
    interface FileStream extends Readable {
      /** Set when the file went past limits.fileSize (its rest was skipped). */
      truncated: boolean;
    }
    interface Busboy extends Writable {
      on(event: 'file', listener: (name: string, stream: FileStream, info: FileInfo) => void): this;
      on(event: 'field', listener: (name: string, value: string) => void): this;
      on(event: 'partsLimit' | 'filesLimit' | 'fieldsLimit' | 'close', listener: () => void): this;
      on(event: 'error', listener: (err: Error) => void): this;
      on(event: string | symbol, listener: (...args: any[]) => void): this;
    }
  }
  function busboy(config: busboy.Config): busboy.Busboy;
  export = busboy;
}
