import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from './chromium.ts';

/** A PNG of printed lines (black on white, as a worksheet), drawn by the system Chromium. */
export async function renderTextPng(lines: string[], { fontSize = 48 } = {}): Promise<Buffer> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({
      viewport: { width: 900, height: Math.ceil(120 + lines.length * fontSize * 1.6) },
    });
    const escaped = lines.map((line) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    await page.setContent(
      `<body style="margin:0;padding:40px;background:#fff;color:#000;font:${fontSize}px 'DejaVu Sans', Arial, sans-serif">` +
        escaped.map((line) => `<div>${line}</div>`).join('') +
        '</body>',
    );
    return await page.screenshot({ type: 'png', fullPage: true });
  } finally {
    await browser.close();
  }
}
