// The node side of scripts/writer_defaults.py for zarrita.js: writes each array of a job with
// zarr.create given nothing but shape, chunk shape and data type (zarrita picks the codecs, fill
// value and key encoding), then zarr.set with the whole input. Run from the adapter's staged npm
// folder (next to its node_modules and chunks.mjs):
//     node writer_defaults_zarrita.mjs <job folder>
// Like writer_defaults_child.py it records a refusal per array in refused.json (what the defaults
// are, not a failure of this script) and the versions that ran in versions.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as zarr from "zarrita";
import { FileSystemStore } from "@zarrita/storage";
import { loadChunk } from "./chunks.mjs";

const job = process.argv[2];
const { cases } = JSON.parse(readFileSync(join(job, "job.json"), "utf8"));
const refused = {};
for (const entry of cases) {
  const folder = join(job, entry.name, "store");
  mkdirSync(folder, { recursive: true });
  try {
    const root = zarr.root(new FileSystemStore(folder));
    const options = { shape: entry.shape, chunkShape: entry.chunks, dtype: entry.dtype };
    const arr = await zarr.create(root, options);
    await zarr.set(arr, null, loadChunk(join(job, entry.input)));
  } catch (err) {
    refused[entry.name] = `${err.name}: ${err.message}`;
    console.error(`${entry.name}: ${refused[entry.name]}`);
  }
}
const version = (name) => JSON.parse(readFileSync(join("node_modules", name, "package.json"))).version;
writeFileSync(join(job, "refused.json"), JSON.stringify(refused, null, 1));
const versions = { zarrita: version("zarrita"), "@zarrita/storage": version("@zarrita/storage") };
writeFileSync(join(job, "versions.json"), JSON.stringify({ ...versions, node: process.version }));
