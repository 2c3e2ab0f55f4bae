/**
 * Plain REST calls of the access, isolation and example tests: a request whose answer must have a
 * given status (its body parsed), a JSON body or none, and a multipart body holding a small PDF.
 */

/** The smallest PDF the upload checks accept (its magic bytes and trailer). */
export const MINIMAL_PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** The answer's JSON body (undefined when empty), once its status is the one expected; else an error showing the body. */
export async function expectJson(res: Response, status: number): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A request to `baseUrl + path`, with `body` sent as JSON when given. */
export function sendJson(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A multipart body with MINIMAL_PDF in the field `file`. */
export function pdfForm(fileName = 'accounts.pdf'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(MINIMAL_PDF)], { type: 'application/pdf' }), fileName);
  return form;
}
