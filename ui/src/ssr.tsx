// The build-time renderer (bundled to ui/.ssr/render.mjs). stdin:
// {"localesDir": "...", "items": [{"key","id","island","props","lng"}]}; stdout: {"html": {key: html},
// "shared": n} (n items filled in from a shared render, lib/sharedRender.ts).
// Any failure exits non-zero with the island named on stderr.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { i18n, TFunction } from 'i18next';
import { components } from 'virtual:islands';
import { IslandRoot } from './components/IslandRoot';
import { createI18n, NAMESPACES, type LocaleBundle } from './lib/i18n';
import { fillSlots, slotTokens, type MaybeShared } from './lib/sharedRender';

export interface RenderItem {
  key: string;
  id: string;
  island: string;
  props?: Record<string, unknown>;
  lng: string;
}

// React 19 hoists resource hints for images into the markup; the client never renders them.
const PRELOAD_LINK = /<link\b[^>]*\brel="preload"[^>]*\/?>/g;

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

function renderItem(item: RenderItem, Island: ComponentType<any>, i18n: i18n, props: Record<string, unknown>): string {
  try {
    const markup = renderToString(<IslandRoot name={item.island} id={item.id} lng={item.lng} i18n={i18n} Island={Island} props={props} />, {
      identifierPrefix: item.id,
    });
    return markup.replace(PRELOAD_LINK, '');
  } catch (err) {
    throw new Error(`island ${item.island} (item ${item.key}) failed to render: ${(err as Error).stack ?? err}`);
  }
}

/** Every item's HTML by key, and how many items were filled in from a shared render. */
export function renderBatch(localesDir: string, items: RenderItem[]): { html: Record<string, string>; shared: number } {
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
  const html: Record<string, string> = {};
  let shared = 0;
  for (const item of items) {
    const Island = components[item.island];
    if (!Island) {
      throw new Error(`unknown island "${item.island}" (item ${item.key}); known: ${Object.keys(components).join(', ')}`);
    }
    const props = item.props ?? {};
    const render = (p: Record<string, unknown>) => renderItem(item, Island, i18nFor(item.lng), p);
    const sharing = (Island as MaybeShared).sharedRender;
    if (!sharing) {
      html[item.key] = render(props);
      continue;
    }
    const values = sharing.slots(props);
    const group = JSON.stringify([item.island, item.id, item.lng, sharing.group(props)]);
    const template = templates.get(group);
    if (template === undefined) {
      const full = render(props);
      const candidate = render(sharing.withSlots(props, slotTokens(values.length)));
      templates.set(group, fillSlots(candidate, values) === full ? candidate : null);
      html[item.key] = full;
    } else if (template === null) {
      html[item.key] = render(props);
    } else {
      html[item.key] = fillSlots(template, values);
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

async function main() {
  const input = JSON.parse(await readStdin()) as { localesDir?: string; items?: RenderItem[] };
  if (typeof input.localesDir !== 'string' || !Array.isArray(input.items)) {
    throw new Error('expected {"localesDir": string, "items": [...]} on stdin');
  }
  process.stdout.write(JSON.stringify(renderBatch(input.localesDir, input.items)));
}

main().catch((err) => {
  process.stderr.write(`render.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
