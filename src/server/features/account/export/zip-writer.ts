import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

// A streaming zip writer (PKWARE APPNOTE 6.3): each entry deflated as it is read, its CRC and sizes in a data
// descriptor after it, so nothing is held in memory but the central directory. No ZIP64: an export is one user's
// data, far below the 4 GiB the classic format addresses (checked, not assumed). Decision 0058 says why no library.

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20;
// Bit 3: sizes follow in a data descriptor; bit 11: names are UTF-8.
const FLAGS = (1 << 3) | (1 << 11);
const DEFLATE = 8;
const MAX_32 = 0xffffffff;

type Entry = {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  time: number;
  date: number;
};

/** A date as the MS-DOS time and date fields zip keeps (local time, two-second steps, from 1980). */
function dosDateTime(at: Date) {
  const year = Math.max(at.getFullYear(), 1980);
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

export function createZipWriter(output: Writable, modifiedAt = new Date()) {
  const entries: Entry[] = [];
  let offset = 0;
  const { time, date } = dosDateTime(modifiedAt);

  const write = async (chunk: Buffer) => {
    offset += chunk.length;
    if (offset > MAX_32) throw new Error('The zip would pass 4 GiB, which needs ZIP64');
    if (!output.write(chunk)) await once(output, 'drain');
  };

  return {
    /** Adds one file; entries are written one after the other, so await each before the next. */
    async add(name: string, source: Readable | Buffer | string) {
      const nameBytes = Buffer.from(name, 'utf8');
      const entry: Entry = { name: nameBytes, crc: 0, compressed: 0, size: 0, offset, time, date };
      const header = Buffer.alloc(30);
      header.writeUInt32LE(LOCAL_HEADER, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt16LE(FLAGS, 6);
      header.writeUInt16LE(DEFLATE, 8);
      header.writeUInt16LE(time, 10);
      header.writeUInt16LE(date, 12);
      // CRC and sizes (14–25) stay zero: the data descriptor carries them.
      header.writeUInt16LE(nameBytes.length, 26);
      await write(Buffer.concat([header, nameBytes]));

      const deflate = createDeflateRaw();
      const compressedOut = (async () => {
        for await (const chunk of deflate as AsyncIterable<Buffer>) {
          entry.compressed += chunk.length;
          await write(chunk);
        }
      })();
      const chunks: AsyncIterable<Buffer | string> | Array<Buffer | string> =
        typeof source === 'string' || Buffer.isBuffer(source) ? [source] : (source as AsyncIterable<Buffer>);
      for await (const piece of chunks) {
        const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        entry.crc = crc32(chunk, entry.crc);
        entry.size += chunk.length;
        if (!deflate.write(chunk)) await once(deflate, 'drain');
      }
      deflate.end();
      await compressedOut;

      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
      descriptor.writeUInt32LE(entry.crc >>> 0, 4);
      descriptor.writeUInt32LE(entry.compressed, 8);
      descriptor.writeUInt32LE(entry.size, 12);
      await write(descriptor);
      entries.push(entry);
    },

    /** Writes the central directory and ends the output. */
    async finish() {
      if (entries.length > 0xffff) throw new Error('The zip would hold more than 65,535 entries, which needs ZIP64');
      const directoryOffset = offset;
      for (const entry of entries) {
        const header = Buffer.alloc(46);
        header.writeUInt32LE(CENTRAL_HEADER, 0);
        header.writeUInt16LE(VERSION, 4);
        header.writeUInt16LE(VERSION, 6);
        header.writeUInt16LE(FLAGS, 8);
        header.writeUInt16LE(DEFLATE, 10);
        header.writeUInt16LE(entry.time, 12);
        header.writeUInt16LE(entry.date, 14);
        header.writeUInt32LE(entry.crc >>> 0, 16);
        header.writeUInt32LE(entry.compressed, 20);
        header.writeUInt32LE(entry.size, 24);
        header.writeUInt16LE(entry.name.length, 28);
        header.writeUInt32LE(entry.offset, 42);
        await write(Buffer.concat([header, entry.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(offset - directoryOffset, 12);
      end.writeUInt32LE(directoryOffset, 16);
      await write(end);
      output.end();
      await once(output, 'finish');
    },
  };
}
