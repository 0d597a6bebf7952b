// The build-time renderer (bundled to ui/.ssr/render.mjs). stdin:
// {"localesDir": "...", "items": [{"key","id","island","props","lng"}]}; stdout: {"html": {key: html}}.
// Any failure exits non-zero with the island named on stderr.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToString } from 'react-dom/server';
import type { i18n } from 'i18next';
import { components } from 'virtual:islands';
import { IslandRoot } from './components/IslandRoot';
import { createI18n, NAMESPACES, type LocaleBundle } from './lib/i18n';

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

export function renderBatch(localesDir: string, items: RenderItem[]): Record<string, string> {
  const instances = new Map<string, i18n>();
  const html: Record<string, string> = {};
  for (const item of items) {
    const Island = components[item.island];
    if (!Island) {
      throw new Error(`unknown island "${item.island}" (item ${item.key}); known: ${Object.keys(components).join(', ')}`);
    }
    let i18n = instances.get(item.lng);
    if (!i18n) {
      i18n = createI18n(item.lng, loadBundle(localesDir, item.lng));
      instances.set(item.lng, i18n);
    }
    try {
      const markup = renderToString(
        <IslandRoot name={item.island} id={item.id} lng={item.lng} i18n={i18n} Island={Island} props={item.props ?? {}} />,
        { identifierPrefix: item.id },
      );
      html[item.key] = markup.replace(PRELOAD_LINK, '');
    } catch (err) {
      throw new Error(`island ${item.island} (item ${item.key}) failed to render: ${(err as Error).stack ?? err}`);
    }
  }
  return html;
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
  const html = renderBatch(input.localesDir, input.items);
  process.stdout.write(JSON.stringify({ html }));
}

main().catch((err) => {
  process.stderr.write(`render.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
