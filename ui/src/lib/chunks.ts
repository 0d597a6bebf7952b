// Island chunk loading with the spec's failure behaviour: a ChunkLoadError naming the type
// ('missing' or 'timeout') and the URL, a retry button, and a 120000 ms timeout.
export const CHUNK_TIMEOUT_MS = 120000;

export class ChunkLoadError extends Error {
  readonly type: 'missing' | 'timeout';
  readonly request: string;
  constructor(chunk: string, type: 'missing' | 'timeout', request: string) {
    super(`Loading chunk ${chunk} failed.\n(${type}: ${request})`);
    this.name = 'ChunkLoadError';
    this.type = type;
    this.request = request;
  }
}

/** The chunk URL out of the browser's message ("Failed to fetch dynamically imported module: URL"). */
function urlFrom(err: unknown, fallback: string): string {
  const match = /(https?:\/\/\S+|\/assets\/\S+)/.exec(String((err as Error)?.message ?? err));
  return match ? match[1] : fallback;
}

export function importWithTimeout<T>(name: string, load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(name, 'timeout', `/assets/${name}`)), timeoutMs);
    load().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (err) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(name, 'missing', urlFrom(err, `/assets/${name}`)));
      },
    );
  });
}

/** Shows the error in front of the island's prerendered HTML, which stays readable. */
export function showChunkError(el: HTMLElement, error: ChunkLoadError, retry: () => void): void {
  console.warn(error);
  el.querySelector(':scope > .chunk-error')?.remove();
  const box = document.createElement('div');
  box.className = 'chunk-error';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = `${error.name}: ${error.message}`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.textContent = document.documentElement.lang.startsWith('zh')
    ? '重試'
    : document.documentElement.lang === 'ja'
      ? '再試行'
      : 'Retry';
  button.addEventListener('click', () => {
    box.remove();
    retry();
  });
  box.append(text, button);
  el.prepend(box);
}
