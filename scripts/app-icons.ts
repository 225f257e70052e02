// The app's icons as PNG, drawn at build time from the favicon's shapes (src/web/public/favicon.svg): a rounded square
// of the brand colour with a white V, at the sizes phones ask for. "maskable" ones fill the whole square, the V inside
// the safe zone, since the phone cuts its own shape out of them.
import { crc32, deflateSync } from 'node:zlib';

const BRAND = [0x4f, 0x46, 0xe5] as const;
const WHITE = [0xff, 0xff, 0xff] as const;
/** The V of favicon.svg, on its 32-unit grid. */
const V: [number, number][] = [
  [9, 9.5],
  [12.2, 9.5],
  [16, 19.9],
  [19.8, 9.5],
  [23, 9.5],
  [17.6, 23],
  [14.4, 23],
];
const SAMPLES = 4;

function isInsidePolygon(x: number, y: number, polygon: [number, number][]) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function isInsideRoundedSquare(x: number, y: number, radius: number) {
  const cx = Math.min(Math.max(x, radius), 32 - radius);
  const cy = Math.min(Math.max(y, radius), 32 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2 && x >= 0 && x <= 32 && y >= 0 && y <= 32;
}

/** RGBA pixels of the icon, each pixel averaged over SAMPLES² points. */
function drawIcon(size: number, maskable: boolean) {
  const pixels = Buffer.alloc(size * size * 4);
  // A maskable icon's V is drawn at 70% around the centre: inside the 80% circle every mask keeps.
  const vScale = maskable ? 0.7 : 1;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let square = 0;
      let letter = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = ((px + (sx + 0.5) / SAMPLES) / size) * 32;
          const y = ((py + (sy + 0.5) / SAMPLES) / size) * 32;
          if (maskable || isInsideRoundedSquare(x, y, 8)) square++;
          if (isInsidePolygon(16 + (x - 16) / vScale, 16.25 + (y - 16.25) / vScale, V)) letter++;
        }
      }
      const total = SAMPLES * SAMPLES;
      const offset = (py * size + px) * 4;
      const white = letter / Math.max(square, 1);
      for (let channel = 0; channel < 3; channel++) {
        pixels[offset + channel] = Math.round(BRAND[channel]! * (1 - white) + WHITE[channel]! * white);
      }
      pixels[offset + 3] = Math.round((square / total) * 255);
    }
  }
  return pixels;
}

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An RGBA PNG of `size`×`size` pixels. */
function encodePng(size: number, pixels: Buffer) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method choice, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The icons manifest.webmanifest and index.html name, by file name under icons/. */
export const APP_ICONS = [
  { fileName: 'icons/icon-192.png', size: 192, maskable: false },
  { fileName: 'icons/icon-512.png', size: 512, maskable: false },
  { fileName: 'icons/maskable-512.png', size: 512, maskable: true },
  { fileName: 'icons/apple-touch-icon.png', size: 180, maskable: true },
] as const;

export function drawAppIcon({ size, maskable }: { size: number; maskable: boolean }) {
  return encodePng(size, drawIcon(size, maskable));
}
