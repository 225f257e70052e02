// Creates an empty data directory's database cluster (initdb) in a process of its own, run by embedded-server.ts.
// initdb leaves a few hundred MB of freed WebAssembly and tarball memory that the C allocator keeps: in the server's
// process that would stay resident for its whole life, here it goes back to the system when this process ends.
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('Usage: pglite-initdb <data directory>');
const db = await PGlite.create(dataDir);
await db.close();
