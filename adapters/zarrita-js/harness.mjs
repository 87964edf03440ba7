// zarrita.js adapter: speaks the harness's NDJSON protocol (adapters/README.md) on stdin/stdout.
//
// Reads v2 and v3 arrays and groups through zarrita's public API (zarr.open.v2 / open.v3,
// zarr.get, Array.getChunk for 0-d arrays) and reports what that API says about the node (`api`,
// `attributes` from zarrita's getters; nothing is parsed from the stored documents for them).
// zarrita has no store listing: group members and `list` come from consolidated metadata
// (zarr.withMaybeConsolidatedMetadata) when zarrita finds it; otherwise a group is reported with
// `members: null` and `list` is answered `unsupported` (declared in adapter.toml [[errors]]).
// Writes are v3 only (zarr.create + zarr.set; `update` writes regions with zarr.set), translated
// from the requested metadata document into create() options; what create() cannot express
// (another chunk grid, the v2 key encoding, extra members, storage transformers) is the adapter's own `Unsupported` answer, declared in
// adapter.toml. zarrita's errors are reported as they are (type, message, origin); adapter.toml
// [[errors]] maps them to categories.
import { endianness } from "node:os";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as zarr from "zarrita";
import { FileSystemStore, ZipFileStore } from "@zarrita/storage";
import { cStrides, descrOf, loadChunk, saveChunk } from "./chunks.mjs";
import { Unsupported, packageVersion, serve } from "./protocol.mjs";
import { startTimer } from "./timer.mjs";

// ---- stores and nodes -----------------------------------------------------------------------

function openStore(spec) {
  if (spec.kind === "directory") return new FileSystemStore(spec.location);
  if (spec.kind === "zip") {
    let bytes = readFileSync(spec.location);
    return ZipFileStore.fromBlob(new Blob([bytes]));
  }
  if (spec.kind === "url" && /^https?:/.test(spec.location)) return new zarr.FetchStore(spec.location);
  if (spec.kind === "url" && spec.location.startsWith("s3://")) return new zarr.FetchStore(s3PathStyle(spec));
  throw new Unsupported(`zarrita-js drives no store ${spec.kind} ${spec.location}`);
}

// zarrita has no S3 store: a bucket readable without signing (public-read) is plain HTTP GETs of
// path-style URLs, <endpoint>/<bucket>/<key>, which FetchStore makes (no credentials are sent).
function s3PathStyle(spec) {
  let endpoint = (spec.storage_options || {}).endpoint_url;
  if (!endpoint) throw new Unsupported("zarrita-js reads s3:// only through an endpoint_url (unsigned path-style GETs)");
  let rest = spec.location.slice("s3://".length);
  return `${endpoint.replace(/\/+$/, "")}/${rest.split("/").map(encodeURIComponent).join("/")}`;
}

// feature:verbatim-paths: the path as the implementation gets it, apart from the one leading "/"
// of a v3 path's absolute form ('.', '..', empty segments and v2's slashes are its to handle).
function nodePath(raw, format) {
  let path = raw ?? "";
  return (format === "v3" || format === "v3-draft") && path.startsWith("/") ? path.slice(1) : path;
}

function locate(store, path) {
  let root = zarr.root(store);
  return path ? root.resolve(path) : root;
}

function openerFor(format) {
  if (format === "v2") return zarr.open.v2;
  if (format === "v3") return zarr.open.v3;
  throw new Unsupported(`zarrita does not implement format ${format}`);
}

async function rawDocument(store, location, name) {
  let bytes = await store.get(location.resolve(name).path);
  if (bytes === undefined) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null; // not strict JSON (e.g. a bare NaN token): no document to report
  }
}

// zarrita's only listing: the contents of consolidated metadata, when zarrita finds it
// (withMaybeConsolidatedMetadata hands back the plain store otherwise). null: no listing.
async function consolidatedContents(store, format) {
  let listable = await zarr.withMaybeConsolidatedMetadata(store, { format });
  return typeof listable.contents === "function" ? listable.contents() : null;
}

function relativeTo(base, path) {
  let p = path.replace(/^\/+/, "");
  if (!base) return p;
  if (p === base) return "";
  return p.startsWith(base + "/") ? p.slice(base.length + 1) : null;
}

// ---- requests ---------------------------------------------------------------------------------

// v2: which document exists decides the kind asked for, so that zarrita reports why an array
// fails to open (open.v2 without `kind` retries as a group and reports "Not found: v2 group"
// instead). Only the presence of the key is looked at, never its content. v3 needs no hint: a
// single zarr.json, and zarrita decides from it.
async function v2Kind(store, location) {
  if ((await store.get(location.resolve(".zarray").path)) !== undefined) return "array";
  if ((await store.get(location.resolve(".zgroup").path)) !== undefined) return "group";
  return undefined;
}

// Attributes as zarrita's `attrs` getter gives them. The contract wants an object or null: a value
// zarrita accepted that is not an object (a list, a string) is reported as `attributes_as_read`
// with `attributes: null`; zarrita's undefined (no attributes member) is null too.
function attributesOf(node) {
  let attrs = node.attrs;
  if (attrs !== null && typeof attrs === "object" && !Array.isArray(attrs)) return { attributes: attrs };
  if (attrs === undefined || attrs === null) return { attributes: null };
  return { attributes: null, attributes_as_read: attrs };
}

// ---- what zarrita's Array reports (`api`) ---------------------------------------------------

// The constructors zarrita itself uses for a data type (its getCtr, which is not exported).
function typedArrayFor(dtype) {
  let m = /^v2:([US])(\d+)$/.exec(dtype);
  if (m) {
    let chars = Number(m[2]);
    return m[1] === "U"
      ? { make: () => new zarr.UnicodeStringArray(chars, 1), unit: 4 }
      : { make: () => new zarr.ByteStringArray(chars, 1), unit: 1 };
  }
  let ctor = {
    int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
    uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
    float16: globalThis.Float16Array, float32: Float32Array, float64: Float64Array,
    bool: zarr.BoolArray,
  }[dtype];
  if (!ctor) return null;
  return { make: () => new ctor(1), unit: dtype === "bool" ? 1 : ctor.BYTES_PER_ELEMENT };
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// zarrita's fillValue as the bytes it fills a missing chunk with: one element of zarrita's typed
// array for the data type, filled the way Array.getChunk fills (data.fill(fillValue)), in
// little-endian order. Variable-length types and a null fill travel as {"value": ...}.
function fillValueOf(arr) {
  let fill = arr.fillValue;
  if (fill === undefined) return undefined;
  let typed = fill === null ? null : typedArrayFor(arr.dtype);
  let asValue = () => {
    if (fill instanceof Uint8Array) return { value: String.fromCharCode(...fill) };
    if (typeof fill === "number" && !Number.isFinite(fill)) return { value: String(fill) };
    if (typeof fill === "bigint") return { value: Number.isSafeInteger(Number(fill)) ? Number(fill) : fill.toString() };
    return { value: fill };
  };
  if (!typed) return asValue();
  let one = typed.make();
  try {
    one.fill(fill);
  } catch {
    return asValue(); // zarrita's typed array refuses this value: report the value as zarrita holds it
  }
  let raw = one._data ?? one;
  let bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength).slice();
  if (endianness() === "BE" && typed.unit > 1) {
    for (let i = 0; i < bytes.length; i += typed.unit) bytes.subarray(i, i + typed.unit).reverse();
  }
  return { bytes: hex(bytes) };
}

// The symbol-keyed context zarrita keeps on an Array (hierarchy.ts CONTEXT_MARKER): the only
// place zarrita says whether the array is sharded. Array.chunks is then the inner chunk shape,
// not the chunk grid's (the shard shape), so chunk_shape is left out for sharded arrays.
function isSharded(arr) {
  let marker = Object.getOwnPropertySymbols(arr).find((s) => s.description === "zarrita.context");
  return marker !== undefined && arr[marker]?.kind === "sharded";
}

const isList = (v, item) => Array.isArray(v) && v.every(item);
const isCount = (min) => (n) => Number.isSafeInteger(n) && n >= min;

// Members whose value zarrita holds in a form the response cannot carry (a shape that is not a
// list of counts, say, from a document zarrita accepted unchecked) are left out: absent = the API
// gives no usable answer. Such an array does not get through zarr.get anyway.
function apiOf(arr) {
  let api = {};
  if (isList(arr.shape, isCount(0))) api.shape = arr.shape;
  if (typeof arr.dtype === "string") {
    api.dtype = descrOf(arr.dtype) ?? (arr.dtype === "v2:object" || arr.dtype === "string" ? "|O" : arr.dtype);
  }
  if (!isSharded(arr) && isList(arr.chunks, isCount(1))) api.chunk_shape = arr.chunks;
  let fill = fillValueOf(arr);
  if (fill !== undefined) api.fill_value = fill;
  let names = arr.dimensionNames;
  if (isList(names, (n) => n === null || typeof n === "string")) api.dimension_names = names;
  return api;
}

async function read(req) {
  let store = openStore(req.store);
  let path = nodePath(req.node, req.format);
  let location = locate(store, path);
  let options = {};
  if (req.format === "v2") {
    let kind = await v2Kind(store, location);
    if (kind) options.kind = kind;
  }
  let node = await openerFor(req.format)(location, options);
  let attributes = attributesOf(node);
  if (node.kind === "group") {
    let contents = await consolidatedContents(store, req.format);
    let members = null;
    if (contents !== null) {
      members = {};
      for (let { path: p, kind } of contents) {
        let rel = relativeTo(path, p);
        if (rel && !rel.includes("/")) members[rel] = kind;
      }
    }
    return { node_type: "group", ...attributes, members };
  }
  let api = apiOf(node);
  let zeroD = Array.isArray(node.shape) && node.shape.length === 0;
  let chunk = zeroD ? await node.getChunk([]) : await zarr.get(node);
  let metadata = await rawDocument(store, location, req.format === "v3" ? "zarr.json" : ".zarray");
  let saved = saveChunk(req.output, node.dtype, chunk);
  return { node_type: "array", metadata, ...attributes, api, data: saved.path, shape: chunk.shape, dtype: saved.dtype };
}

async function list(req) {
  let store = openStore(req.store);
  let path = nodePath(req.node, req.format);
  let node = await openerFor(req.format)(locate(store, path));
  // paths from the store root, like the reference adapter's
  if (node.kind === "array") return { nodes: { [path]: "array" } };
  let contents = await consolidatedContents(store, req.format);
  if (contents === null) throw new Unsupported("zarrita cannot list a store without consolidated metadata");
  let nodes = { [path]: "group" };
  for (let { path: p, kind } of contents) {
    let rel = relativeTo(path, p);
    if (rel) nodes[p.replace(/^\/+/, "")] = kind;
  }
  return { nodes };
}

const CREATE_MEMBERS = new Set([
  "zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding",
  "fill_value", "codecs", "dimension_names", "attributes", "storage_transformers",
]);

// JSON fill values as zarrita scalars. Integers beyond 2^53 are recovered from the request's raw
// text (JSON.parse rounds them; that rounding would be this harness's fault, not zarrita's).
function fillScalar(doc, rawLine) {
  let v = doc.fill_value;
  let dtype = doc.data_type;
  if (dtype === "int64" || dtype === "uint64") {
    if (typeof v !== "number") throw new Unsupported(`zarr.create has no scalar for fill_value ${JSON.stringify(v)} of data type ${dtype}`);
    if (Number.isSafeInteger(v)) return BigInt(v);
    for (let m of rawLine.matchAll(/"fill_value"\s*:\s*(-?\d+)(?=\s*[,}])/g)) {
      if (Number(m[1]) === v) return BigInt(m[1]);
    }
    return BigInt(v);
  }
  if (typeof v === "string" && /^(float|complex)/.test(dtype)) {
    if (v === "NaN") return NaN;
    if (v === "Infinity") return Infinity;
    if (v === "-Infinity") return -Infinity;
    if (/^0x[0-9a-fA-F]+$/.test(v)) {
      let view = new DataView(new ArrayBuffer(8));
      if (dtype === "float32" && v.length === 10) {
        view.setUint32(0, parseInt(v.slice(2), 16));
        return view.getFloat32(0);
      }
      if (dtype === "float64" && v.length === 18) {
        view.setBigUint64(0, BigInt(v));
        return view.getFloat64(0);
      }
    }
    throw new Unsupported(`zarr.create has no scalar for fill_value ${v} of data type ${dtype}`);
  }
  return v;
}

function createOptions(doc, attributes, rawLine) {
  let extra = Object.keys(doc).filter((k) => !CREATE_MEMBERS.has(k));
  if (extra.length) throw new Unsupported(`zarr.create cannot write the members ${extra.join(", ")}`);
  if ((doc.storage_transformers ?? []).length) throw new Unsupported("zarr.create writes no storage transformers");
  if (doc.chunk_grid?.name !== "regular") throw new Unsupported(`zarr.create writes only the regular chunk grid, not ${JSON.stringify(doc.chunk_grid)}`);
  let encoding = doc.chunk_key_encoding ?? { name: "default" };
  if (encoding.name !== "default") throw new Unsupported(`zarr.create has no chunk key encoding ${encoding.name}`);
  let options = {
    shape: doc.shape,
    chunkShape: doc.chunk_grid.configuration.chunk_shape,
    dtype: doc.data_type,
    codecs: doc.codecs,
    fillValue: fillScalar(doc, rawLine),
    attributes,
  };
  if (encoding.configuration?.separator !== undefined) options.chunkSeparator = encoding.configuration.separator;
  if (doc.dimension_names !== undefined) options.dimensionNames = doc.dimension_names;
  return options;
}

async function write(req, rawLine) {
  if (req.format !== "v3") throw new Unsupported(`zarrita writes only format v3, not ${req.format}`);
  let store = new FileSystemStore(req.store.location);
  if (req.store.kind !== "directory") throw new Unsupported(`zarrita-js drives no store ${req.store.kind} for writing`);
  let location = locate(store, nodePath(req.path, req.format));
  let attributes = req.attributes ?? {};
  if (req.node_type === "group") {
    await zarr.create(location, { attributes });
    return {};
  }
  let arr = await zarr.create(location, createOptions(req.metadata ?? {}, attributes, rawLine));
  if (req.data) {
    let chunk = loadChunk(req.data);
    if (arr.shape.length === 0) {
      let value = typeof chunk.data.get === "function" ? chunk.data.get(0) : chunk.data[0];
      await zarr.set(arr, null, value);
    } else if (chunk.shape.every((n) => n > 0)) {
      await zarr.set(arr, null, chunk);
    }
  }
  return {};
}

// The steps of a write case on the array write() has just created, opened again (zarr.open.v3):
// each region through zarr.set(arr, selection, value) with zarr.slice(start, stop) and plain
// indices; a single element as a scalar. zarrita has no resize (op:update only).
async function update(req) {
  if (req.format !== "v3") throw new Unsupported(`zarrita writes only format v3, not ${req.format}`);
  if (req.store.kind !== "directory") throw new Unsupported(`zarrita-js drives no store ${req.store.kind} for writing`);
  let store = new FileSystemStore(req.store.location);
  let arr = await zarr.open.v3(locate(store, nodePath(req.path, req.format)), { kind: "array" });
  for (let step of req.steps) {
    if (step.op !== "write") throw new Unsupported(`zarrita has no ${step.op} for an existing array`);
    let selection = step.region.map((r) => (typeof r === "number" ? r : zarr.slice(r[0], r[1])));
    let chunk = loadChunk(step.data);
    let value = chunk;
    if (chunk.shape.length === 0) value = typeof chunk.data.get === "function" ? chunk.data.get(0) : chunk.data[0];
    await zarr.set(arr, selection, value);
  }
  return {};
}

function describe() {
  let version = packageVersion("zarrita");
  return {
    name: "zarrita-js",
    version,
    versions: {
      zarrita: version,
      "@zarrita/storage": packageVersion("@zarrita/storage"),
      numcodecs: packageVersion("numcodecs"),
      node: process.versions.node,
    },
  };
}

// ---- bench (conformance/bench): one timed write or read -------------------------------------------

// Every file under `folder` as {key: bytes}, keys as zarrita asks for them ("/zarr.json").
function filesOf(folder, prefix = "") {
  let out = new Map();
  for (let entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
    let rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (let [k, v] of filesOf(folder, rel)) out.set(k, v);
    else out.set(`/${rel}`, new Uint8Array(readFileSync(join(folder, rel))));
  }
  return out;
}

function dumpMap(map, folder) {
  for (let [key, value] of map) {
    let target = join(folder, ...key.replace(/^\/+/, "").split("/"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, value);
  }
}

function benchSettings(store) {
  return {
    store: store instanceof Map ? "Map (zarrita's in-memory store)" : store.constructor.name,
    chunk_queue: "zarrita's default createQueue: every chunk of a call requested at once, no limit",
    codec_threads: "1 (the JS main thread; numcodecs.js codecs in WebAssembly)",
    libuv_threadpool_size: process.env.UV_THREADPOOL_SIZE ?? "4 (default; file I/O)",
  };
}

async function bench(req, rawLine) {
  if (req.format !== "v3") throw new Unsupported(`zarrita writes only format v3, not ${req.format}`);
  let memory = req.store.kind === "memory";
  let write = req.operation === "write";
  let store = memory ? (write ? new Map() : filesOf(req.source)) : write ? new FileSystemStore(req.store.location) : openStore(req.store);
  let location = locate(store, nodePath(req.path, req.format));
  let settings = benchSettings(store);
  if (write) {
    let arr = await zarr.create(location, createOptions(req.metadata ?? {}, {}, rawLine));
    let chunk = loadChunk(req.data);
    let timer = startTimer();
    await zarr.set(arr, null, chunk);
    let timed = timer.stop();
    if (memory && req.dump) dumpMap(store, req.dump);
    return { ...timed, settings };
  }
  let arr = await zarr.open.v3(location, { kind: "array" });
  let regions = req.regions ?? null;
  let parts = [];
  let timer = startTimer();
  if (regions === null) parts.push(await zarr.get(arr));
  else for (let region of regions) parts.push(await zarr.get(arr, region.map(([a, b]) => zarr.slice(a, b))));
  let timed = timer.stop();
  let out = parts[0];
  if (regions !== null) {
    // stacked: [len(regions), *region shape], each part copied in C order
    let size = parts.reduce((n, p) => n + p.data.length, 0);
    let data = new parts[0].data.constructor(size);
    let offset = 0;
    for (let p of parts) {
      data.set(p.data, offset);
      offset += p.data.length;
    }
    let shape = [parts.length, ...parts[0].shape];
    out = { data, shape, stride: cStrides(shape) };
  }
  let saved = saveChunk(req.output, arr.dtype, out);
  return { ...timed, data: saved.path, settings };
}

// One request at a time (protocol.mjs); zarrita's errors are reported as they are, with the
// chain of causes its CodecPipelineError wraps.
await serve({ describe, read, write, update, list, bench }, { name: "zarrita-js" });
