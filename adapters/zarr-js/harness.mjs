// zarr.js adapter (npm `zarr`, the gzuidhof JavaScript implementation of Zarr v2): speaks the
// harness's NDJSON protocol (adapters/README.md) on stdin/stdout.
//
// zarr.js ships stores for memory and HTTP only; `FsStore` below is the store an application on
// Node writes for it: its getItem/setItem/containsItem/deleteItem/keys interface over node:fs,
// throwing zarr.js's own KeyError for a missing key (which zarr.js turns into the fill value).
// Reads open a node with openArray/openGroup (mode "r") and report what zarr.js's objects say
// (shape, chunks, dtype, fillValue, attrs); zarr.js has no hierarchy listing, so group members are
// null and `list` is answered Unsupported. Writes (format v2) go through zarr.create / zarr.group
// with the requested .zarray translated into create() options, then ZarrArray.set; `update`
// writes regions into the array with ZarrArray.set(selection, value).
import { endianness } from "node:os";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import * as zarr from "zarr";
import { readNpy, writeNpy } from "./npy.mjs";
import { Unsupported, packageVersion, serve } from "./protocol.mjs";
import { startTimer } from "./timer.mjs";

// ---- the store ----------------------------------------------------------------------------------

class FsStore {
  constructor(root) {
    this.root = resolve(root);
  }

  // A key as a file under the root; a key that would leave the root is refused.
  file(key) {
    let target = resolve(this.root, ...String(key).split("/").filter(Boolean));
    if (target !== this.root && !target.startsWith(this.root + sep)) throw new Error(`key ${key} leaves the store`);
    return target;
  }

  getItem(key) {
    let buf;
    try {
      buf = readFileSync(this.file(key));
    } catch (err) {
      if (["ENOENT", "ENOTDIR", "EISDIR"].includes(err.code)) throw new zarr.KeyError(key);
      throw err;
    }
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  }

  containsItem(key) {
    try {
      return statSync(this.file(key)).isFile();
    } catch {
      return false;
    }
  }

  setItem(key, value) {
    let target = this.file(key);
    mkdirSync(dirname(target), { recursive: true });
    let bytes = typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value.buffer ?? value, value.byteOffset ?? 0, value.byteLength);
    writeFileSync(target, bytes);
    return true;
  }

  deleteItem(key) {
    rmSync(this.file(key), { force: true });
    return true;
  }

  keys() {
    let out = [];
    let walk = (prefix) => {
      for (let entry of readdirSync(join(this.root, prefix), { withFileTypes: true })) {
        let rel = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(rel);
        else out.push(rel);
      }
    };
    walk("");
    return out;
  }
}

function openStore(spec) {
  if (spec.kind === "directory") return new FsStore(spec.location);
  throw new Unsupported(`zarr-js drives no store ${spec.kind}`);
}

// feature:verbatim-paths: the path as the implementation gets it, apart from the one leading "/"
// of a v3 path's absolute form ('.', '..', empty segments and v2's slashes are its to handle).
function nodePath(raw, format) {
  let path = raw ?? "";
  return (format === "v3" || format === "v3-draft") && path.startsWith("/") ? path.slice(1) : path;
}

function requireV2(format) {
  if (format !== "v2") throw new Unsupported(`zarr.js implements format v2 only, not ${format}`);
}

// ---- data types ----------------------------------------------------------------------------------

// The typed array zarr.js holds a data type in (its getTypedArrayCtr), and the .npy descr of it:
// zarr.js decodes into native (little-endian) typed arrays whatever the stored byte order.
function npyDescr(dtype) {
  let kind = dtype.slice(1);
  let size = zarr.getTypedArrayCtr(dtype).BYTES_PER_ELEMENT;
  if (kind === "b" || kind === "b1" || kind === "B") return "|b1";
  return size === 1 ? `|${kind}` : `<${kind}`;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// zarr.js's fillValue as the bytes a missing chunk is filled with: one element of its typed array
// filled as its chunkGetItem does (out.set(selection, this.fillValue)), little-endian.
function fillValueOf(arr) {
  let fill = arr.fillValue;
  if (fill === null || fill === undefined) return { value: null };
  if (typeof fill === "boolean") fill = Number(fill); // a bool array's typed array is Uint8Array
  if (typeof fill !== "number") return { value: fill };
  let one = new (zarr.getTypedArrayCtr(arr.dtype))(1);
  one.fill(fill);
  let bytes = new Uint8Array(one.buffer).slice();
  if (endianness() === "BE") bytes.reverse();
  return { bytes: hex(bytes) };
}

function bytesOf(typed) {
  let bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  if (endianness() === "BE" && typed.BYTES_PER_ELEMENT > 1) {
    bytes = bytes.slice();
    for (let i = 0; i < bytes.length; i += typed.BYTES_PER_ELEMENT) bytes.subarray(i, i + typed.BYTES_PER_ELEMENT).reverse();
  }
  return bytes;
}

// ---- requests --------------------------------------------------------------------------------------

async function rawDocument(store, key) {
  if (!store.containsItem(key)) return null;
  try {
    return JSON.parse(new TextDecoder().decode(store.getItem(key)));
  } catch {
    return null; // not strict JSON (a bare NaN token): no document to report
  }
}

function prefixOf(path) {
  return path ? `${path}/` : "";
}

const isCountList = (v, min) => Array.isArray(v) && v.every((n) => Number.isSafeInteger(n) && n >= min);

// What zarr.js's ZarrArray reports. Members it holds in a form the response cannot carry (a shape
// that is not a list of counts, a data type that is not a string, from a document zarr.js
// accepted unchecked) are left out: absent = the API gives no usable answer.
function apiOf(arr) {
  let api = {};
  if (isCountList(arr.shape, 0)) api.shape = arr.shape;
  if (typeof arr.dtype === "string") api.dtype = npyDescr(arr.dtype);
  if (isCountList(arr.chunks, 1)) api.chunk_shape = arr.chunks;
  if (typeof arr.dtype === "string") api.fill_value = fillValueOf(arr);
  return api;
}

// Attributes as zarr.js's attrs.asObject() gives them; a value that is not an object (a list)
// travels as `attributes_as_read`.
async function attributesOf(node) {
  let attrs = await node.attrs.asObject();
  if (attrs !== null && typeof attrs === "object" && !Array.isArray(attrs)) return { attributes: attrs };
  return { attributes: null, attributes_as_read: attrs ?? null };
}

async function read(req) {
  requireV2(req.format);
  let store = openStore(req.store);
  let path = nodePath(req.node, req.format);
  // zarr.js decides the node kind: openGroup refuses a path holding an array (ContainsArrayError).
  try {
    let group = await zarr.openGroup(store, path, "r");
    return { node_type: "group", ...(await attributesOf(group)), members: null };
  } catch (err) {
    if (err?.__zarr__ !== "ContainsArrayError") throw err;
  }
  let arr = await zarr.openArray({ store, path, mode: "r" });
  let attributes = await attributesOf(arr);
  let got = await arr.getRaw(null);
  let api = apiOf(arr);
  // A 0-d selection comes back as a number: one element of the array's typed array.
  let data = typeof got === "number" ? new (zarr.getTypedArrayCtr(arr.dtype))([got]) : got.data;
  let shape = typeof got === "number" ? [] : got.shape;
  writeNpy(req.output, npyDescr(arr.dtype), shape, bytesOf(data));
  let metadata = await rawDocument(store, `${prefixOf(path)}.zarray`);
  return { node_type: "array", metadata, ...attributes, api, data: req.output, shape, dtype: npyDescr(arr.dtype) };
}

async function list(req) {
  requireV2(req.format);
  throw new Unsupported("zarr.js has no hierarchy listing");
}

const ZARRAY_MEMBERS = new Set([
  "zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters", "dimension_separator",
]);

function fillNumber(v) {
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  if (v === null || typeof v === "number") return v;
  throw new Unsupported(`zarr.create takes a number or null as fillValue, not ${JSON.stringify(v)}`);
}

function createOptions(doc) {
  let extra = Object.keys(doc).filter((k) => !ZARRAY_MEMBERS.has(k));
  if (extra.length) throw new Unsupported(`zarr.create cannot write the members ${extra.join(", ")}`);
  if (typeof doc.dtype !== "string") throw new Unsupported(`zarr.create takes a data type string, not ${JSON.stringify(doc.dtype)}`);
  let options = {
    shape: doc.shape,
    chunks: doc.chunks,
    dtype: doc.dtype,
    compressor: doc.compressor ?? null,
    fillValue: fillNumber(doc.fill_value ?? null),
    order: doc.order ?? "C",
    filters: doc.filters ?? null,
  };
  if (doc.dimension_separator !== undefined) options.dimensionSeparator = doc.dimension_separator;
  return options;
}

// The request's data as zarr.js's NestedArray: values in this machine's order.
function nestedArrayOf(file, dtype) {
  let npy = readNpy(file);
  let ctor = zarr.getTypedArrayCtr(dtype);
  let size = ctor.BYTES_PER_ELEMENT;
  let bytes = npy.bytes;
  let stored = npy.descr[0] === ">" ? "BE" : "LE";
  if (size > 1 && npy.descr[0] !== "|" && stored !== endianness()) {
    for (let i = 0; i < bytes.length; i += size) bytes.subarray(i, i + size).reverse();
  }
  let typed = new ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / size);
  if (npy.fortranOrder) throw new Error("the harness sent a Fortran-ordered .npy file");
  return { typed, shape: npy.shape };
}

async function write(req) {
  requireV2(req.format);
  if (req.store.kind !== "directory") throw new Unsupported(`zarr-js drives no store ${req.store.kind} for writing`);
  let store = new FsStore(req.store.location);
  let path = nodePath(req.path, req.format);
  let attributes = req.attributes ?? {};
  if (req.node_type === "group") {
    // openGroup "w-" (create, fail if present): zarr.group() creates nothing in a store without
    // a root group (it tests containsGroup(store) for the root, negated the wrong way).
    let group = await zarr.openGroup(store, path, "w-");
    if (Object.keys(attributes).length) await group.attrs.put(attributes);
    return {};
  }
  let arr = await zarr.create({ store, path, ...createOptions(req.metadata ?? {}) });
  if (Object.keys(attributes).length) await arr.attrs.put(attributes);
  if (req.data) {
    let { typed, shape } = nestedArrayOf(req.data, arr.dtype);
    if (shape.length === 0) await arr.set(null, typed[0]);
    else if (shape.every((n) => n > 0)) await arr.set(null, new zarr.NestedArray(typed, shape, arr.dtype));
  }
  return {};
}

// The steps of a write case on the array write() has just created, opened again (openArray, mode
// "r+"): each region through ZarrArray.set(selection, value) with zarr.slice(start, stop) and plain
// indices, a single element as a number. zarr.js has no resize (op:update only).
async function update(req) {
  requireV2(req.format);
  if (req.store.kind !== "directory") throw new Unsupported(`zarr-js drives no store ${req.store.kind} for writing`);
  let arr = await zarr.openArray({ store: new FsStore(req.store.location), path: nodePath(req.path, req.format), mode: "r+" });
  for (let step of req.steps) {
    if (step.op !== "write") throw new Unsupported(`zarr.js has no ${step.op} for an existing array`);
    let selection = step.region.map((r) => (typeof r === "number" ? r : zarr.slice(r[0], r[1])));
    let { typed, shape } = nestedArrayOf(step.data, arr.dtype);
    await arr.set(selection, shape.length === 0 ? typed[0] : new zarr.NestedArray(typed, shape, arr.dtype));
  }
  return {};
}

// ---- bench (conformance/bench): one timed write or read ------------------------------------------

// zarr.js's own MemoryStore filled with every file under `folder` (untimed).
function memoryStoreOf(folder) {
  let store = new zarr.MemoryStore();
  let walk = (prefix) => {
    for (let entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
      let rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else {
        let buf = readFileSync(join(folder, rel));
        store.setItem(rel, buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      }
    }
  };
  walk("");
  return store;
}

// Every value of a MemoryStore (a tree of plain objects) as a file under `folder` (untimed).
function dumpMemoryStore(node, folder, prefix = "") {
  for (let [key, value] of Object.entries(node)) {
    let rel = prefix ? `${prefix}/${key}` : key;
    if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer)) {
      dumpMemoryStore(value, folder, rel);
      continue;
    }
    let target = join(folder, ...rel.split("/"));
    mkdirSync(dirname(target), { recursive: true });
    let bytes = typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(ArrayBuffer.isView(value) ? value.buffer : value, value.byteOffset ?? 0, value.byteLength);
    writeFileSync(target, bytes);
  }
}

const BENCH_SETTINGS = {
  concurrency_limit: "10 (zarr.js's default for get and set)",
  codec_threads: "1 (the JS main thread; numcodecs.js codecs in WebAssembly)",
};

async function bench(req) {
  requireV2(req.format);
  let memory = req.store.kind === "memory";
  if (!memory && req.store.kind !== "directory") throw new Unsupported(`zarr-js drives no store ${req.store.kind}`);
  let path = nodePath(req.path, req.format);
  let settings = { ...BENCH_SETTINGS, store: memory ? "MemoryStore (zarr.js's own)" : "FsStore (node:fs, the adapter's)" };
  if (req.operation === "write") {
    let store = memory ? new zarr.MemoryStore() : new FsStore(req.store.location);
    let arr = await zarr.create({ store, path, ...createOptions(req.metadata ?? {}) });
    let { typed, shape } = nestedArrayOf(req.data, arr.dtype);
    let values = new zarr.NestedArray(typed, shape, arr.dtype);
    let timer = startTimer();
    await arr.set(null, values);
    let timed = timer.stop();
    if (memory && req.dump) dumpMemoryStore(store.root, req.dump);
    return { ...timed, settings };
  }
  let store = memory ? memoryStoreOf(req.source) : new FsStore(req.store.location);
  let arr = await zarr.openArray({ store, path, mode: "r" });
  let regions = req.regions ?? null;
  let parts = [];
  let timer = startTimer();
  if (regions === null) parts.push(await arr.getRaw(null));
  else for (let region of regions) parts.push(await arr.getRaw(region.map(([a, b]) => zarr.slice(a, b))));
  let timed = timer.stop();
  // stacked: [len(regions), *region shape] (a RawArray's data is C order)
  let size = parts.reduce((n, p) => n + p.data.length, 0);
  let data = regions === null ? parts[0].data : new parts[0].data.constructor(size);
  if (regions !== null) {
    let offset = 0;
    for (let p of parts) {
      data.set(p.data, offset);
      offset += p.data.length;
    }
  }
  let shape = regions === null ? parts[0].shape : [parts.length, ...parts[0].shape];
  writeNpy(req.output, npyDescr(arr.dtype), shape, bytesOf(data));
  return { ...timed, data: req.output, settings };
}

function describe() {
  let version = packageVersion("zarr");
  return {
    name: "zarr-js",
    version,
    versions: { zarr: version, numcodecs: packageVersion("numcodecs"), node: process.versions.node },
    settings: { codecs: "zarr.js's default registry (zlib, gzip, blosc); no codec added by the adapter" },
  };
}

// zarr.js's errors do not set `name`; each carries its class name in `__zarr__`.
function typeOf(err) {
  if (err === null || err === undefined) return String(err);
  return err.__zarr__ || err.name || err.constructor?.name || typeof err;
}

await serve({ describe, read, write, update, list, bench }, { name: "zarr-js", typeOf });
