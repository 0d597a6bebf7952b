// The build-time renderer (bundled to ui/.ssr/render.mjs), the island protocol of docs/internals.md.
// stdin: {"protocol": 2, "localesDir": "...", "items": [{"id","island","props","lng"}]}; the answer,
// on file descriptor 3 so that nothing an island or a library prints can corrupt it:
// {"protocol": 2, "html": [one string per item, in request order], "shared": n} (n items filled in
// from a shared render, lib/sharedRender.ts). Any failure exits non-zero naming the island on stderr.
import { readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { i18n, TFunction } from 'i18next';
import { components } from 'virtual:islands';
import { IslandRoot } from './components/IslandRoot';
import { createI18n, NAMESPACES, type LocaleBundle } from './lib/i18n';
import { fillSlots, slotTokens, type MaybeShared } from './lib/sharedRender';
import { stripResourceHints } from './lib/resourceHints';

/** The version of the request and answer format; `PROTOCOL` in generator/src/render/islands/renderer.rs must match. */
export const PROTOCOL = 2;

/** Where the answer goes: the generator opens this pipe beside stdin, stdout and stderr. */
const ANSWER_FD = 3;

export interface RenderItem {
  id: string;
  island: string;
  props?: Record<string, unknown>;
  lng: string;
}

function loadBundle(localesDir: string, lng: string): LocaleBundle {
  const bundle: LocaleBundle = {};
  for (const ns of NAMESPACES) {
    const file = path.join(localesDir, lng, `${ns}.json`);
    try {
      bundle[ns] = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`cannot read locale file ${file}: ${(err as Error).message}`);
    }
  }
  return bundle;
}

type Primitive = string | number | boolean | undefined;
const isPrimitive = (value: unknown): value is Primitive => value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

/** Arguments that name one text for good: primitives, or an options object of primitives. */
function stableArgs(args: unknown[]): boolean {
  return args.every(
    (arg) =>
      isPrimitive(arg) ||
      (typeof arg === 'object' && arg !== null && Object.getPrototypeOf(arg) === Object.prototype && Object.values(arg).every(isPrimitive)),
  );
}

/**
 * A build renders thousands of islands with the same few dozen texts, and i18next resolves every
 * call anew (copying all its options each time: most of a TopBar render). The texts cannot change
 * during a build, so each distinct call is resolved once per language.
 */
function rememberTranslations(instance: i18n): i18n {
  const fixed = new Map<string, TFunction>();
  const getFixedT = instance.getFixedT.bind(instance);
  instance.getFixedT = ((...scope: Parameters<typeof getFixedT>) => {
    const id = JSON.stringify(scope);
    let remembered = fixed.get(id);
    if (!remembered) {
      const t = getFixedT(...scope) as unknown as (...args: unknown[]) => unknown;
      const texts = new Map<string, unknown>();
      remembered = Object.assign((...args: unknown[]) => {
        if (!stableArgs(args)) return t(...args);
        const key = JSON.stringify(args);
        if (!texts.has(key)) texts.set(key, t(...args));
        return texts.get(key);
      }, t) as unknown as TFunction;
      fixed.set(id, remembered);
    }
    return remembered;
  }) as typeof instance.getFixedT;
  return instance;
}

function renderItem(item: RenderItem, n: number, Island: ComponentType<any>, i18n: i18n, props: Record<string, unknown>): string {
  try {
    const markup = renderToString(<IslandRoot name={item.island} id={item.id} lng={item.lng} i18n={i18n} Island={Island} props={props} />, {
      identifierPrefix: item.id,
    });
    return stripResourceHints(markup);
  } catch (err) {
    throw new Error(`island ${item.island} (item ${n}, id ${item.id}, ${item.lng}) failed to render: ${(err as Error).stack ?? err}`);
  }
}

/** Every item's HTML, in the items' order, and how many items were filled in from a shared render. */
export function renderBatch(localesDir: string, items: RenderItem[]): { html: string[]; shared: number } {
  const instances = new Map<string, i18n>();
  const i18nFor = (lng: string) => {
    let i18n = instances.get(lng);
    if (!i18n) {
      i18n = rememberTranslations(createI18n(lng, loadBundle(localesDir, lng)));
      instances.set(lng, i18n);
    }
    return i18n;
  };
  // Per group of a shared render (lib/sharedRender.ts): its template, or null when the template
  // filled in did not give the full render of the group's first item.
  const templates = new Map<string, string | null>();
  const html: string[] = [];
  let shared = 0;
  for (const [n, item] of items.entries()) {
    const Island = components[item.island];
    if (!Island) {
      throw new Error(`unknown island "${item.island}" (item ${n}, id ${item.id}); known: ${Object.keys(components).join(', ')}`);
    }
    const props = item.props ?? {};
    const render = (p: Record<string, unknown>) => renderItem(item, n, Island, i18nFor(item.lng), p);
    const sharing = (Island as MaybeShared).sharedRender;
    if (!sharing) {
      html.push(render(props));
      continue;
    }
    const values = sharing.slots(props);
    const group = JSON.stringify([item.island, item.id, item.lng, sharing.group(props)]);
    const template = templates.get(group);
    if (template === undefined) {
      const full = render(props);
      const candidate = render(sharing.withSlots(props, slotTokens(values.length)));
      templates.set(group, fillSlots(candidate, values) === full ? candidate : null);
      html.push(full);
    } else if (template === null) {
      html.push(render(props));
    } else {
      html.push(fillSlots(template, values));
      shared += 1;
    }
  }
  return { html, shared };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes the whole answer to the answer channel; a pipe may take it in several writes. */
function answer(text: string) {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(ANSWER_FD, bytes, written);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EBADF') {
      throw new Error(`the answer goes to file descriptor ${ANSWER_FD}, which is not open: the generator (site build) runs this renderer`);
    }
    throw err;
  }
}

async function main() {
  const input = JSON.parse(await readStdin()) as { protocol?: unknown; localesDir?: string; items?: RenderItem[] };
  if (input.protocol !== PROTOCOL) {
    throw new Error(
      `the generator speaks island protocol ${input.protocol ?? '1 (no version)'}, this renderer ${PROTOCOL}: build the UI and the generator from the same sources (make build)`,
    );
  }
  if (typeof input.localesDir !== 'string' || !Array.isArray(input.items)) {
    throw new Error('expected {"protocol": 2, "localesDir": string, "items": [...]} on stdin');
  }
  answer(JSON.stringify({ protocol: PROTOCOL, ...renderBatch(input.localesDir, input.items) }));
  // Done even if an island's module left a timer or socket open.
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`render.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
