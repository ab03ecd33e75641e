// An upload that says how far it got. fetch cannot report a request body's progress in
// browsers (a streamed body needs HTTP/2 there), so where XMLHttpRequest exists the one call
// goes through it, answered as a fetch Response so that the client reads it like any other;
// elsewhere (Node) the body is sent as a stream that counts what fetch has taken from it.

/** Called as the body goes out: bytes sent so far, and the body's size when known. */
export type UploadProgress = (sent: number, total: number | undefined) => void;

type Body = string | Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array>;

/** A fetch for one upload through XMLHttpRequest, or undefined where there is none. */
export function progressFetch(onProgress: UploadProgress): typeof fetch | undefined {
  if (typeof XMLHttpRequest === 'undefined') return undefined;
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>))
        xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : undefined);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
        }
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(
          new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }),
        );
      };
      xhr.onerror = () => reject(new TypeError('the upload got no answer'));
      xhr.onabort = () => reject(new DOMException('the upload was aborted', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort());
      xhr.send(init.body as XMLHttpRequestBodyInit | null);
    });
}

/** The body as a stream that reports each chunk fetch reads from it (where XMLHttpRequest is missing). */
export function countingBody(body: Body, onProgress: UploadProgress): ReadableStream<Uint8Array> {
  const source = body instanceof ReadableStream ? body : new Blob([body as BlobPart]);
  const total = source instanceof Blob ? source.size : undefined;
  const reader = (source instanceof Blob ? source.stream() : source).getReader();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) return controller.close();
      sent += next.value.byteLength;
      controller.enqueue(next.value);
      onProgress(sent, total);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
