// zarrita.js adapter: speaks the harness's NDJSON protocol (adapters/README.md) on stdin/stdout.
//
// Reads v2 and v3 arrays and groups through zarrita's public API (zarr.open.v2 / open.v3,
// zarr.get, Array.getChunk for 0-d arrays). zarrita cannot list a store: group members and `list`
// come from consolidated metadata (zarr.withConsolidatedMetadata) when the store has it, otherwise
// the request is answered `unsupported`. Writes are v3 only (zarr.create + zarr.set), translated
// from the requested metadata document into create() options; what create() cannot express
// (another chunk grid, the v2 key encoding, extra members, storage transformers) is `unsupported`.
// zarrita's own UnsupportedError (e.g. gzip encode, set on sharded arrays) is `unsupported` too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as zarr from "zarrita";
import { FileSystemStore, ZipFileStore } from "@zarrita/storage";
import { Unsupported, loadChunk, saveChunk } from "./chunks.mjs";

const PROTOCOL = 1;

class ProtocolError extends Error {
  name = "ProtocolError";
}

function packageVersion(name) {
  let roots = [process.env.NODE_PATH, join(process.cwd(), "node_modules")].filter(Boolean);
  for (let root of roots) {
    try {
      return JSON.parse(readFileSync(join(root, name, "package.json"), "utf8")).version;
    } catch {
      // try the next root
    }
  }
  return "unknown";
}

// ---- stores and nodes -----------------------------------------------------------------------

function openStore(spec) {
  if (spec.kind === "directory") return new FileSystemStore(spec.location);
  if (spec.kind === "zip") {
    let bytes = readFileSync(spec.location);
    return ZipFileStore.fromBlob(new Blob([bytes]));
  }
  if (spec.kind === "url" && /^https?:/.test(spec.location)) return new zarr.FetchStore(spec.location);
  throw new Unsupported(`store ${spec.kind} ${spec.location}`);
}

function nodePath(raw) {
  return (raw ?? "").replace(/^\/+|\/+$/g, "");
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

async function listing(store, format) {
  try {
    let listable = await zarr.withConsolidatedMetadata(store, { format });
    return listable.contents();
  } catch (err) {
    throw new Unsupported(`zarrita cannot list a store without consolidated metadata (${err.message})`);
  }
}

function relativeTo(base, path) {
  let p = path.replace(/^\/+/, "");
  if (!base) return p;
  if (p === base) return "";
  return p.startsWith(base + "/") ? p.slice(base.length + 1) : null;
}

// ---- requests ---------------------------------------------------------------------------------

// The node kind from the stored document, so that zarrita reports why an array fails to open
// (open.v2 without `kind` retries as a group and reports "Not found: v2 group" instead).
async function storedKind(store, location, format) {
  if (format === "v2") {
    if ((await store.get(location.resolve(".zarray").path)) !== undefined) return "array";
    if ((await store.get(location.resolve(".zgroup").path)) !== undefined) return "group";
    return undefined;
  }
  let doc = await rawDocument(store, location, "zarr.json");
  return doc?.node_type === "array" || doc?.node_type === "group" ? doc.node_type : undefined;
}

// Attributes must travel as a JSON object; a reader that accepted something else (a list, null)
// still accepted it: report {} and the value as read, so a reject case records the acceptance.
function attributesOf(node) {
  let attrs = node.attrs;
  if (attrs !== null && typeof attrs === "object" && !Array.isArray(attrs)) return { attributes: attrs };
  return { attributes: {}, attributes_as_read: attrs ?? null };
}

async function read(req) {
  let store = openStore(req.store);
  let path = nodePath(req.node);
  let location = locate(store, path);
  let kind = await storedKind(store, location, req.format);
  let node = await openerFor(req.format)(location, kind ? { kind } : {});
  let { attributes, ...extra } = attributesOf(node);
  if (node.kind === "group") {
    let members = {};
    for (let { path: p, kind } of await listing(store, req.format)) {
      let rel = relativeTo(path, p);
      if (rel && !rel.includes("/")) members[rel] = kind;
    }
    return { node_type: "group", attributes, ...extra, members };
  }
  let chunk = node.shape.length === 0 ? await node.getChunk([]) : await zarr.get(node);
  let metadata = await rawDocument(store, location, req.format === "v3" ? "zarr.json" : ".zarray");
  let saved = saveChunk(req.output, node.dtype, chunk);
  return { node_type: "array", metadata, attributes, ...extra, data: saved.path, shape: chunk.shape, dtype: saved.dtype };
}

async function list(req) {
  let store = openStore(req.store);
  let path = nodePath(req.node);
  let node = await openerFor(req.format)(locate(store, path));
  // paths from the store root, like the reference adapter's
  if (node.kind === "array") return { nodes: { [path]: "array" } };
  let nodes = { [path]: "group" };
  for (let { path: p, kind } of await listing(store, req.format)) {
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
    if (typeof v !== "number") throw new Unsupported(`fill_value ${JSON.stringify(v)} for ${dtype}`);
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
    throw new Unsupported(`fill_value ${v} for ${dtype}`);
  }
  return v;
}

function createOptions(doc, attributes, rawLine) {
  let extra = Object.keys(doc).filter((k) => !CREATE_MEMBERS.has(k));
  if (extra.length) throw new Unsupported(`zarr.create cannot write the members ${extra.join(", ")}`);
  if ((doc.storage_transformers ?? []).length) throw new Unsupported("zarr.create writes no storage transformers");
  if (doc.chunk_grid?.name !== "regular") throw new Unsupported(`chunk grid ${JSON.stringify(doc.chunk_grid)}`);
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
  if (req.store.kind !== "directory") throw new Unsupported(`writes to ${req.store.kind} stores`);
  let location = locate(store, nodePath(req.path));
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

const HANDLERS = { describe, read, write, list };

function isUnsupported(err) {
  for (let e = err; e; e = e.cause) {
    if (e instanceof Unsupported || e?.name === "UnsupportedError") return true;
  }
  return false;
}

function errorOf(err) {
  let message = String(err?.message ?? err);
  if (err?.cause?.message) message += ` (cause: ${err.cause.message})`;
  return { type: err?.name ?? err?.constructor?.name ?? "Error", message, reason: null };
}

async function handle(req, rawLine) {
  let started = process.hrtime.bigint();
  let elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  if (req.op === "shutdown") return { id: req.id, ok: true, elapsed: elapsed() };
  let handler = HANDLERS[req.op];
  let response;
  if (!handler) {
    response = { ok: false, error: errorOf(new ProtocolError(`unknown or unimplemented op ${req.op}`)) };
  } else {
    try {
      response = { ok: true, ...(await handler(req, rawLine)) };
      if (req.op === "describe") response.protocol = PROTOCOL;
    } catch (err) {
      response = { ok: false, ...(isUnsupported(err) ? { unsupported: true } : {}), error: errorOf(err) };
    }
  }
  return { ...response, id: req.id, elapsed: elapsed() };
}

// One request at a time, in order; anything else zarrita prints goes to stderr. A promise that
// zarrita leaves rejected after a request has been answered must not end the process.
console.log = console.error;
process.on("unhandledRejection", (err) => console.error("zarrita-js: unhandled rejection:", err));
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    process.stdout.write(JSON.stringify({ id: -1, ok: false, error: errorOf(new ProtocolError(`unreadable request: ${err.message}`)), elapsed: 0 }) + "\n");
    continue;
  }
  let response = await handle(req, line);
  process.stdout.write(JSON.stringify(response) + "\n");
  if (req.op === "shutdown") break;
}
