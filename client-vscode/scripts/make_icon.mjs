// Draws the extension's icon, images/icon.png (128x128 RGBA; package.json `icon`): a "V" in
// vLLM's yellow and blue on a dark rounded square. No image library: the shapes are distance
// tests sampled 4x4 per pixel, and the PNG is written by hand (zlib from node).
//   node scripts/make_icon.mjs          writes images/icon.png
//   node scripts/make_icon.mjs --check  exits 1 when images/icon.png has other pixels (the
//                                       test suite runs this; deflate bytes may differ
//                                       between zlib builds, so pixels are compared)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4;
const BACKGROUND = [0x1f, 0x29, 0x37];
const LEFT = [0xfd, 0xb5, 0x15];
const RIGHT = [0x30, 0xa2, 0xff];
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'images', 'icon.png');

/** Inside the square with rounded corners (radius 26) that fills the icon. */
function inSquare(x, y) {
  const r = 26;
  const dx = Math.max(r - x, x - (SIZE - r), 0);
  const dy = Math.max(r - y, y - (SIZE - r), 0);
  return dx * dx + dy * dy <= r * r;
}

/** Within `half` of the segment a-b (a stroke with round caps). */
function nearSegment(x, y, [ax, ay], [bx, by], half) {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return (x - ax - t * (bx - ax)) ** 2 + (y - ay - t * (by - ay)) ** 2 <= half * half;
}

/** The colour at a point, or null outside the icon (transparent). */
function colour(x, y) {
  if (!inSquare(x, y)) return null;
  const bottom = [64, 98];
  if (nearSegment(x, y, [92, 32], bottom, 10)) return RIGHT;
  if (nearSegment(x, y, [36, 32], bottom, 10)) return LEFT;
  return BACKGROUND;
}

/** PNG scanlines: filter byte 0, then RGBA (straight alpha) per pixel. */
function pixels() {
  const raw = Buffer.alloc(SIZE * (1 + SIZE * 4));
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const c = colour(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (!c) continue;
          covered++;
          for (let i = 0; i < 3; i++) sum[i] += c[i];
        }
      }
      const at = y * (1 + SIZE * 4) + 1 + x * 4;
      for (let i = 0; i < 3; i++) raw[at + i] = covered ? Math.round(sum[i] / covered) : 0;
      raw[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
  }
  return raw;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(raw) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter choice, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The scanlines of a PNG this script wrote (one IDAT chunk). */
function scanlines(file) {
  let at = 8;
  while (at < file.length) {
    const length = file.readUInt32BE(at);
    if (file.toString('ascii', at + 4, at + 8) === 'IDAT') return inflateSync(file.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.alloc(0);
}

const raw = pixels();
if (process.argv.includes('--check')) {
  if (!scanlines(readFileSync(out)).equals(raw)) {
    console.error(`${out} is not what scripts/make_icon.mjs draws: run node scripts/make_icon.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(out, png(raw));
  console.log(`wrote ${out}`);
}
