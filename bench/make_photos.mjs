// Writes COUNT phone-sized photos (4032 x 3024, 12 MP) as JPEG into DIR for the photo row of
// `make bench` (photo_bench.py): gradients with grain, encoded by Chromium's canvas at quality
// 0.9, so the decoder and encoders see about the entropy of a photo, and no photo is stored.
//   node bench/make_photos.mjs REPO DIR COUNT
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [repo, dir, count] = process.argv.slice(2);
const { chromium } = await import(pathToFileURL(path.join(repo, 'tests/node_modules/playwright-core/index.mjs')).href);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (let n = 1; n <= Number(count); n++) {
    const dataUrl = await page.evaluate((seed) => {
      const [w, h] = [4032, 3024];
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [w, h];
      const context = canvas.getContext('2d');
      const gradient = context.createLinearGradient(0, 0, w, h);
      gradient.addColorStop(0, `hsl(${seed * 67} 60% 30%)`);
      gradient.addColorStop(1, `hsl(${seed * 67 + 120} 70% 70%)`);
      context.fillStyle = gradient;
      context.fillRect(0, 0, w, h);
      const pixels = context.getImageData(0, 0, w, h);
      let state = seed * 2654435761;
      for (let i = 0; i < pixels.data.length; i += 4) {
        state = (state * 1103515245 + 12345) >>> 0;
        const grain = (state >>> 24) / 16 - 8;
        for (let c = 0; c < 3; c++) pixels.data[i + c] += grain;
      }
      context.putImageData(pixels, 0, 0);
      return canvas.toDataURL('image/jpeg', 0.9);
    }, n);
    writeFileSync(path.join(dir, `bench-photo-${n}.jpg`), Buffer.from(dataUrl.split(',')[1], 'base64'));
  }
} finally {
  await browser.close();
}
