// A second runner of the golden corpus, in another language, reading fixtures/ alone (no Python,
// no file outside the corpus folder): the proof that fixtures/README.md ("Writing a runner") is
// enough to run the corpus. It is a small Zarr v2/v3 reader of its own for the cases it can
// decode; every other case is `unsupported`, by the case's `needs` or, where a need is too coarse
// for what the store holds, by a named limitation of this runner, never a silent pass.
//
//   node runner.mjs FIXTURES [--cases PREFIX] [--jsonl]
//
// Plain Node 20, no packages. Prints one line per case (--jsonl: JSON records) and a summary;
// exits 1 when a supported case does not pass.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// What this runner declares (names of fixtures/capabilities.json).
const DTYPES = {
  bool: ["b", 1], int8: ["i", 1], int16: ["i", 2], int32: ["i", 4], int64: ["i", 8],
  uint8: ["u", 1], uint16: ["u", 2], uint32: ["u", 4], uint64: ["u", 8],
  float16: ["f", 2], float32: ["f", 4], float64: ["f", 8], complex64: ["c", 8], complex128: ["c", 16],
};
// Bytes are swapped per number: a complex value is two floats.
const part = (dtype) => (dtype.kind === "c" ? dtype.size / 2 : dtype.size);
function swap(buf, step) {
  if (step > 1) for (let o = 0; o < buf.length; o += step) buf.subarray(o, o + step).reverse();
}
const CAPABILITIES = new Set([
  "format:v2", "format:v3", "op:read", "store:directory", "node:group",
  "codec:bytes", "codec:gzip", "codec:zlib", "codec:transpose", "codec:crc32c", "codec:sharding_indexed", "dtype:big-endian",
  ...Object.keys(DTYPES).map((t) => `dtype:${t}`),
  "feature:attributes", "feature:dimension-names", "feature:0d", "feature:zero-length",
  "feature:chunk-key-encoding-v2", "feature:dimension-separator-slash", "feature:order-F",
  "feature:sharding-index-start", "feature:unicode-names",
]);

class Refusal extends Error {} // the store is invalid: a clean refusal, with a reason code
class Unsupported extends Error {} // valid, perhaps, but beyond this runner: not judged

const refuse = (reason, msg) => { throw new Refusal(`[${reason}] ${msg}`); };
const unsupported = (msg) => { throw new Unsupported(msg); };

// ---- strict JSON (RFC 8259) keeping numbers as written: 1 is not 1.0, and uint64 stays exact ---
class Num {
  constructor(text) { this.text = text; this.isInt = !/[.eE]/.test(text); }
  get big() { return BigInt(this.text); }
  get value() { return Number(this.text); }
  toJSON() { return this.text; }
}
const numbers = (list) => list.map((x) => (x instanceof Num ? x.value : x));

function parseJSON(bytes, where) {
  let text;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); }
  catch { refuse("invalid-json", `${where}: not UTF-8`); }
  let i = 0;
  const fail = (msg) => refuse("invalid-json", `${where}: ${msg} at ${i}`);
  const ws = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++; const out = Object.create(null); ws();
      if (text[i] === "}") { i++; return out; }
      for (;;) {
        ws(); if (text[i] !== '"') fail("expected a member name");
        const k = string();
        if (k in out) refuse("invalid-json", `${where}: duplicate member ${k}`);
        ws(); if (text[i++] !== ":") fail("expected ':'");
        out[k] = value(); ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return out; }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++; const out = []; ws();
      if (text[i] === "]") { i++; return out; }
      for (;;) {
        out.push(value()); ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return out; }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || !m[0]) fail("unexpected character");
    i += m[0].length;
    return new Num(m[0]);
  };
  const string = () => {
    i++; let out = "";
    for (;;) {
      const c = text[i++];
      if (c === undefined) fail("unterminated string");
      if (c === '"') return out;
      if (c < " ") fail("control character in a string");
      if (c !== "\\") { out += c; continue; }
      const e = text[i++];
      const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e in simple) out += simple[e];
      else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
        out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16)); i += 4;
      } else fail("bad escape");
    }
  };
  const v = value(); ws();
  if (i !== text.length) fail("trailing characters");
  return v;
}

// Type-strict equality of parsed JSON: true is not 1, 1 is not 1.0, key order is free.
function same(a, b) {
  if (a instanceof Num || b instanceof Num) {
    if (!(a instanceof Num && b instanceof Num) || a.isInt !== b.isInt) return false;
    return a.isInt ? a.big === b.big : Object.is(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, k) => same(x, b[k]));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    return same(ka, kb) && ka.every((k) => same(a[k], b[k]));
  }
  return a === b;
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Num);
const isCount = (v, min) => v instanceof Num && v.isInt && v.big >= BigInt(min) && v.big < 2n ** 53n;

function members(doc, allowed, where) {
  if (!isObject(doc)) refuse("invalid-metadata", `${where} is not a JSON object`);
  for (const k of Object.keys(doc)) if (!allowed.includes(k)) refuse("unknown-field", `${where}: ${k}`);
}

function shapeOf(v, min, what) {
  if (!Array.isArray(v) || !v.every((x) => isCount(x, min))) refuse("invalid-shape", `${what}: ${JSON.stringify(v)}`);
  return v.map((x) => x.value);
}

// ---- data types and fill values -------------------------------------------------------------------
// A type is {kind, size, big} (big: stored big-endian); values are handled as little-endian bytes.
function fillBytes(dtype, v, format) {
  const out = Buffer.alloc(dtype.size);
  const bad = () => refuse("invalid-fill-value", `${JSON.stringify(v)} for ${dtype.kind}${dtype.size}`);
  if (v === null) unsupported("a null fill value (feature:fill-null)");
  // v2 conventions (optional cases): a bool fill 0 or 1, an integer fill with a zero fraction
  if (format === "v2" && dtype.kind === "b" && v instanceof Num && (v.text === "0" || v.text === "1")) v = v.text === "1";
  if (format === "v2" && "iu".includes(dtype.kind) && v instanceof Num && !v.isInt && Number.isInteger(v.value)) {
    v = new Num(BigInt(v.value).toString());
  }
  if (dtype.kind === "b") {
    if (typeof v !== "boolean") bad();
    out[0] = v ? 1 : 0;
  } else if (dtype.kind === "i" || dtype.kind === "u") {
    if (!(v instanceof Num) || !v.isInt) bad();
    const bits = BigInt(dtype.size * 8), n = v.big;
    const [lo, hi] = dtype.kind === "u" ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
    if (n < lo || n > hi) bad();
    const wide = Buffer.alloc(8); wide.writeBigUInt64LE(BigInt.asUintN(64, n));
    wide.copy(out, 0, 0, dtype.size);
  } else if (dtype.kind === "c") {
    // [real, imaginary], each a float fill (v2: a convention the reference reads)
    if (!Array.isArray(v) || v.length !== 2) bad();
    const half = { kind: "f", size: dtype.size / 2 };
    v.forEach((x, k) => fillBytes(half, x, format).copy(out, k * half.size));
  } else {
    const special = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
    if (typeof v === "string" && v in special) writeFloat(out, special[v], dtype.size);
    else if (format === "v3" && typeof v === "string" && /^0x[0-9a-fA-F]+$/.test(v)) {
      if (v.length !== 2 + 2 * dtype.size) bad();
      Buffer.from(v.slice(2), "hex").reverse().copy(out);
    } else if (v instanceof Num) {
      if (dtype.size === 2) {
        const bits = toFloat16Bits(v.text);
        if (bits === null) bad(); // a finite number beyond the type's range
        out.writeUInt16LE(bits);
      } else {
        const x = dtype.size === 4 ? toFloat32(v.text) : v.value;
        if (!Number.isFinite(x)) bad(); // a finite number beyond the type's range
        writeFloat(out, x, dtype.size);
      }
    } else bad();
  }
  return out;
}

// A decimal number rounded once to the nearest float32 (ties to even). Math.fround(Number(text))
// rounds twice, which goes wrong when the double lands exactly halfway between two float32s.
function toFloat32(text) {
  const d = Number(text), f = Math.fround(d);
  if (f === d || !Number.isFinite(f)) return f;
  const g = nextFloat32(f, d > f ? 1 : -1);
  if ((f + g) / 2 !== d) return f; // not a tie: the double's rounding decided nothing
  const side = compareDecimal(text, d); // where the exact decimal lies against the halfway double
  if (side === 0) return f;
  return (side > 0) === (g > f) ? g : f;
}

function nextFloat32(f, dir) {
  const a = new Float32Array([f]), bits = new Int32Array(a.buffer);
  bits[0] += (f >= 0) === (dir > 0) ? 1 : -1;
  return a[0];
}

function compareDecimal(text, d) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  let num = BigInt(m[2] + (m[3] || "")), exp10 = Number(m[4] || 0) - (m[3] || "").length;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(d));
  const bits = view.getBigUint64(0), e = Number((bits >> 52n) & 0x7ffn);
  let man = bits & ((1n << 52n) - 1n), exp2 = e - 1075;
  if (e) man |= 1n << 52n; else exp2 = -1074;
  let left = num, right = man; // |decimal| against |d|, both scaled to integers
  if (exp10 >= 0) left *= 10n ** BigInt(exp10); else right *= 10n ** BigInt(-exp10);
  if (exp2 >= 0) right *= 2n ** BigInt(exp2); else left *= 2n ** BigInt(-exp2);
  const sign = m[1] ? -1 : 1;
  return left === right ? 0 : (left > right ? 1 : -1) * sign;
}

// A decimal number rounded once to the nearest float16 (ties to even), as its bits; null when
// it is beyond the type's range.
function toFloat16Bits(text) {
  const d = Number(text), sign = d < 0 || Object.is(d, -0) ? 0x8000 : 0, x = Math.abs(d);
  if (x === 0) return sign;
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  if (2 ** (e + 1) <= x) e++;
  const ulp = 2 ** (Math.max(e, -14) - 10), q = x / ulp, low = Math.floor(q);
  let r = low;
  if (q - low > 0.5) r = low + 1;
  else if (q - low === 0.5) {
    const side = compareDecimal(text, d) * (d < 0 ? -1 : 1); // the exact decimal against the tie
    r = side > 0 || (side === 0 && low % 2 === 1) ? low + 1 : low;
  }
  const value = r * ulp;
  if (value >= 65520) return null;
  if (value < 2 ** -14) return sign | r; // subnormal (r may reach 1024: the smallest normal)
  const exp = Math.floor(Math.log2(value));
  return sign | ((exp + 15) << 10) | (value / 2 ** (exp - 10) - 1024);
}

function writeFloat(out, x, size) {
  if (size === 2) {
    out.writeUInt16LE(Number.isNaN(x) ? 0x7e00 : x > 0 ? 0x7c00 : 0xfc00); // the special values only
    return;
  }
  if (size === 4) out.writeFloatLE(x); else out.writeDoubleLE(x);
  if (Number.isNaN(x)) (size === 4 ? Buffer.from("0000c07f", "hex") : Buffer.from("000000000000f87f", "hex")).copy(out);
}

function v3Type(name, vocabulary) {
  if (typeof name !== "string") {
    if (isObject(name) && vocabulary.has(`dtype:${name.name}`)) unsupported(`data type ${JSON.stringify(name.name)} as an object`);
    refuse("invalid-data-type", JSON.stringify(name));
  }
  if (name in DTYPES) { const [kind, size] = DTYPES[name]; return { kind, size, big: false }; }
  if (vocabulary.has(`dtype:${name}`) || /^r[0-9]+$/.test(name)) unsupported(`data type ${name}`);
  refuse("invalid-data-type", name);
}

function v2Type(s) {
  if (Array.isArray(s)) unsupported("a structured data type");
  if (typeof s !== "string") refuse("invalid-data-type", JSON.stringify(s));
  const m = /^([<>|])([biufcmMSUVO])([0-9]+)(\[.*\])?$/.exec(s);
  if (!m) refuse("invalid-data-type", s);
  const [, order, kind, digits] = m, size = Number(digits);
  if (!"biufc".includes(kind) || m[4] || (kind === "f" && size === 2)) unsupported(`data type ${s}`);
  const sizes = { b: [1], i: [1, 2, 4, 8], u: [1, 2, 4, 8], f: [4, 8], c: [8, 16] }[kind];
  if (!sizes.includes(size)) refuse("invalid-data-type", s);
  if (size > 1 && order === "|") refuse("invalid-data-type", `${s}: no byte order`);
  return { kind, size, big: order === ">" };
}

// ---- opening nodes ----------------------------------------------------------------------------------
function nodePath(node, format) {
  if (format === "v3" && node.startsWith("/")) node = node.slice(1); // v3 paths start at the root
  if (node === "") return [];
  const parts = node.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) refuse("invalid-path", node);
  if (format === "v3" && parts.some((p) => p.startsWith("__"))) refuse("invalid-node-name", `${node}: the prefix __ is reserved`);
  return parts;
}

function readKey(store, key) {
  const file = path.join(store, ...key.split("/"));
  try { return fs.readFileSync(file); } catch (e) {
    if (e.code === "ENOENT" || e.code === "ENOTDIR" || e.code === "EISDIR") return null;
    throw e;
  }
}

function open(store, format, node, vocabulary) {
  const prefix = nodePath(node, format).map((p) => p + "/").join("");
  return format === "v3" ? openV3(store, prefix, vocabulary) : openV2(store, prefix, vocabulary);
}

function extension(v, where) {
  if (typeof v === "string") unsupported(`short-hand name ${v} (feature:shorthand-names)`);
  members(v, ["name", "configuration", "must_understand"], where);
  if (typeof v.name !== "string") refuse("invalid-extension", `${where}: name`);
  // 3.1: must_understand true is what every known extension means; false on one is a misuse
  if ("must_understand" in v && v.must_understand !== true) refuse("invalid-extension", `${where}: must_understand`);
  if ("configuration" in v && !isObject(v.configuration)) refuse("invalid-extension", `${where}: configuration`);
  return [v.name, v.configuration ?? Object.create(null)];
}

function openV3(store, prefix, vocabulary) {
  const bytes = readKey(store, prefix + "zarr.json");
  if (bytes === null) refuse("node-not-found", `${prefix}zarr.json`);
  const doc = parseJSON(bytes, "zarr.json");
  if (!isObject(doc)) refuse("invalid-metadata", "zarr.json is not an object");
  if (!("zarr_format" in doc)) refuse("missing-field", "zarr_format");
  if (!(doc.zarr_format instanceof Num && doc.zarr_format.text === "3")) refuse("invalid-zarr-format", JSON.stringify(doc.zarr_format));
  const attributes = "attributes" in doc ? doc.attributes : Object.create(null);
  if (!isObject(attributes)) refuse("invalid-attributes", "attributes");
  if (doc.node_type === "group") {
    if ("consolidated_metadata" in doc) unsupported("consolidated metadata (feature:consolidated)");
    members(doc, ["zarr_format", "node_type", "attributes"], "zarr.json");
    return { node_type: "group", attributes, members: () => children(store, prefix, "v3") };
  }
  if (doc.node_type !== "array") refuse("invalid-node-type", JSON.stringify(doc.node_type));
  members(doc, ["zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding",
    "fill_value", "codecs", "attributes", "storage_transformers", "dimension_names"], "zarr.json");
  for (const k of ["shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs"]) {
    if (!(k in doc)) refuse("missing-field", k);
  }
  const shape = shapeOf(doc.shape, 0, "shape");
  const dtype = v3Type(doc.data_type, vocabulary);
  const [grid, gridConf] = extension(doc.chunk_grid, "chunk_grid");
  if (grid !== "regular") {
    if (vocabulary.has(`grid:${grid}`)) unsupported(`chunk grid ${grid}`);
    refuse("invalid-chunk-grid", grid);
  }
  members(gridConf, ["chunk_shape"], "chunk_grid.configuration");
  const chunks = shapeOf(gridConf.chunk_shape, 1, "chunk_shape");
  if (chunks.length !== shape.length) refuse("invalid-chunk-shape", "rank differs from shape");
  const [cke, ckeConf] = extension(doc.chunk_key_encoding, "chunk_key_encoding");
  if (cke !== "default" && cke !== "v2") {
    if (vocabulary.has(`cke:${cke}`)) unsupported(`chunk key encoding ${cke}`);
    refuse("invalid-chunk-key-encoding", cke);
  }
  members(ckeConf, ["separator"], "chunk_key_encoding.configuration");
  const separator = "separator" in ckeConf ? ckeConf.separator : cke === "default" ? "/" : ".";
  if (separator !== "/" && separator !== ".") refuse("invalid-chunk-key-encoding", `separator ${JSON.stringify(separator)}`);
  const fill = fillBytes(dtype, doc.fill_value, "v3");
  const pipeline = parsePipeline(doc.codecs, chunks, dtype, fill, vocabulary, "codecs");
  if ("storage_transformers" in doc && !(Array.isArray(doc.storage_transformers) && doc.storage_transformers.length === 0)) {
    refuse("invalid-storage-transformer", "storage_transformers");
  }
  let names = null;
  if ("dimension_names" in doc) {
    names = doc.dimension_names;
    if (!Array.isArray(names) || names.length !== shape.length || !names.every((n) => n === null || typeof n === "string")) {
      refuse("invalid-dimension-names", JSON.stringify(names));
    }
  }
  const key = (idx) => (cke === "default" ? ["c", ...idx].join(separator) : idx.length ? idx.join(separator) : "0");
  const decode = pipeline.decode;
  return { node_type: "array", attributes, shape, chunks, dtype: { ...dtype, big: false }, fill, dimension_names: names, order: "C",
    read: () => readArray(store, prefix, shape, chunks, dtype, fill, key, decode) };
}

function openV2(store, prefix, vocabulary) {
  const array = readKey(store, prefix + ".zarray"), group = readKey(store, prefix + ".zgroup");
  if (array && group) refuse("mixed-formats", ".zarray and .zgroup");
  if (!array && !group) refuse("node-not-found", prefix || "(root)");
  const attrBytes = readKey(store, prefix + ".zattrs");
  const attributes = attrBytes === null ? Object.create(null) : parseJSON(attrBytes, ".zattrs");
  if (!isObject(attributes)) refuse("invalid-attributes", ".zattrs");
  const doc = parseJSON(array || group, array ? ".zarray" : ".zgroup");
  if (!isObject(doc)) refuse("invalid-metadata", "not an object");
  if (!(doc.zarr_format instanceof Num && doc.zarr_format.text === "2")) refuse("invalid-zarr-format", JSON.stringify(doc.zarr_format));
  if (group) {

    return { node_type: "group", attributes, members: () => children(store, prefix, "v2") };
  }
  const known = ["zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"];
  // v2 defines no rule for other members: readers ignore them (the reference reads such stores)
  if (!isObject(doc)) refuse("invalid-metadata", ".zarray");
  for (const k of known) if (!(k in doc)) refuse("missing-field", k);
  const shape = shapeOf(doc.shape, 0, "shape");
  const chunks = shapeOf(doc.chunks, 1, "chunks");
  if (chunks.length !== shape.length) refuse("invalid-chunk-shape", "rank differs from shape");
  const dtype = v2Type(doc.dtype);
  if (doc.order !== "C" && doc.order !== "F") refuse("invalid-order", JSON.stringify(doc.order));
  // a chunk in Fortran order is the C-order chunk transposed by the reversed axes
  const orders = doc.order === "F" ? [shape.map((_, d) => shape.length - 1 - d)] : [];
  if (doc.filters !== null) {
    if (!Array.isArray(doc.filters)) refuse("invalid-codec", "filters");
    if (doc.filters.length) unsupported("v2 filters");
  }
  let compressor = null;
  if (doc.compressor !== null) {
    if (!isObject(doc.compressor) || typeof doc.compressor.id !== "string") refuse("invalid-codec", "compressor");
    compressor = doc.compressor.id;
    if (compressor !== "gzip" && compressor !== "zlib") {
      if (vocabulary.has(`codec:${compressor}`)) unsupported(`compressor ${compressor}`);
      refuse("unknown-codec", compressor);
    }
    members(doc.compressor, ["id", "level"], "compressor");
    const level = doc.compressor.level;
    if (!(level instanceof Num && level.isInt && level.big >= -1n && level.big <= 9n)) refuse("invalid-codec", "level");
  }
  const separator = doc.dimension_separator ?? ".";
  if (separator !== "." && separator !== "/") refuse("invalid-chunk-key-encoding", JSON.stringify(separator));
  const fill = fillBytes(dtype, doc.fill_value, "v2");
  const key = (idx) => (idx.length ? idx.join(separator) : "0");
  const decode = (raw) => decodeArray(compressor ? inflate(raw, compressor) : raw, chunks, dtype, dtype.big, orders);
  return { node_type: "array", attributes, shape, chunks, dtype, fill, dimension_names: undefined,
    read: () => readArray(store, prefix, shape, chunks, dtype, fill, key, decode) };
}

function inflate(raw, kind) {
  try { return kind === "gzip" ? zlib.gunzipSync(raw) : zlib.inflateSync(raw); }
  catch (e) { refuse("corrupt-chunk", `${kind}: ${e.message}`); }
}

function children(store, prefix, format) {
  const out = {};
  const dir = path.join(store, ...prefix.split("/").filter(Boolean));
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || (format === "v3" && entry.name.startsWith("__"))) continue;
    const sub = prefix + entry.name + "/";
    if (format === "v3") {
      const bytes = readKey(store, sub + "zarr.json");
      if (bytes === null) continue;
      const doc = parseJSON(bytes, `${sub}zarr.json`);
      if (isObject(doc) && (doc.node_type === "array" || doc.node_type === "group")) out[entry.name] = doc.node_type;
    } else if (readKey(store, sub + ".zarray")) out[entry.name] = "array";
    else if (readKey(store, sub + ".zgroup")) out[entry.name] = "group";
  }
  return out;
}

// ---- reading: every chunk of the regular grid, a missing one as the fill value --------------------
// The bytes of one chunk (shape `chunks`) as the array->bytes codec left them, after the
// transposes `orders`: values in C order, little-endian.
function decodeArray(bytes, chunks, dtype, big, orders) {
  const size = dtype.size, want = chunks.reduce((a, b) => a * b, 1) * size;
  if (bytes.length !== want) refuse("corrupt-chunk", `${bytes.length} bytes, want ${want}`);
  let chunk = Buffer.from(bytes);
  if (big) swap(chunk, part(dtype));
  if (dtype.kind === "b" && chunk.some((b) => b > 1)) refuse("corrupt-chunk", "a bool byte other than 00/01");
  // undo the transposes, last first: the shapes the chunk had after each of them
  const shapes = [chunks];
  for (const order of orders) shapes.push(order.map((axis) => shapes.at(-1)[axis]));
  for (let k = orders.length - 1; k >= 0; k--) chunk = untranspose(chunk, shapes[k + 1], orders[k], size);
  return chunk;
}

// A v3 codec list: array->array* (transpose), one array->bytes (bytes, sharding_indexed),
// bytes->bytes* (gzip, crc32c). Returns decode(raw) -> the chunk of shape `chunks`, and the
// encoded size when it is fixed.
function parsePipeline(list, chunks, dtype, fill, vocabulary, where) {
  if (!Array.isArray(list) || list.length === 0) refuse("invalid-codec", where);
  const codecs = list.map((c, k) => extension(c, `${where}[${k}]`));
  const stage = { transpose: 0, bytes: 1, sharding_indexed: 1, gzip: 2, crc32c: 2 };
  let at = 0, endian, inner = null, shape = chunks;
  const orders = [], streams = [];
  for (const [k, [name, conf]] of codecs.entries()) {
    if (!(name in stage)) {
      if (vocabulary.has(`codec:${name}`)) unsupported(`codec ${name}`);
      refuse("unknown-codec", name);
    }
    const misplaced = stage[name] < at || (stage[name] === 1 && at === 1) || (stage[name] === 2 && at === 0);
    if (misplaced) refuse("codec-order", `${name} at position ${k}`);
    at = stage[name];
    if (name === "transpose") {
      members(conf, ["order"], "transpose.configuration");
      const order = conf.order;
      if (!Array.isArray(order) || !order.every((x) => isCount(x, 0)) || order.length !== shape.length ||
          new Set(order.map((x) => x.value)).size !== order.length || order.some((x) => x.value >= order.length)) {
        refuse("invalid-order", `transpose order ${JSON.stringify(order)}`);
      }
      orders.push(order.map((x) => x.value));
      shape = orders.at(-1).map((axis) => shape[axis]);
    } else if (name === "bytes") {
      members(conf, ["endian"], "bytes.configuration");
      endian = conf.endian;
      const valid = endian === undefined ? dtype.size === 1 : endian === "little" || endian === "big";
      if (!valid) refuse("invalid-codec", `bytes endian ${JSON.stringify(endian)}`);
    } else if (name === "sharding_indexed") {
      inner = parseSharding(conf, shape, dtype, fill, vocabulary);
    } else if (name === "gzip") {
      members(conf, ["level"], "gzip.configuration");
      if (!isCount(conf.level, 0) || conf.level.value > 9) refuse("invalid-codec", "gzip level");
      streams.push(name);
    } else {
      members(conf, [], "crc32c.configuration");
      streams.push(name);
    }
  }
  if (at === 0) refuse("codec-order", "no array->bytes codec");
  const elements = chunks.reduce((a, b) => a * b, 1);
  const fixed = streams.includes("gzip") || inner ? null : elements * dtype.size + 4 * streams.length;
  return {
    fixed,
    decode(raw) {
      for (const name of [...streams].reverse()) raw = name === "gzip" ? inflate(raw, "gzip") : checkCrc32c(raw);
      if (inner) return decodeArray(inner(raw), chunks, dtype, false, orders);
      return decodeArray(raw, chunks, dtype, endian === "big", orders);
    },
  };
}

// sharding_indexed over a shard of shape `shard`: returns raw -> the shard, C order.
function parseSharding(conf, shard, dtype, fill, vocabulary) {
  members(conf, ["chunk_shape", "codecs", "index_codecs", "index_location"], "sharding_indexed.configuration");
  for (const k of ["chunk_shape", "codecs", "index_codecs"]) if (!(k in conf)) refuse("missing-field", `sharding_indexed ${k}`);
  const inner = shapeOf(conf.chunk_shape, 1, "sharding chunk_shape");
  if (inner.length !== shard.length || inner.some((n, d) => shard[d] % n !== 0)) {
    refuse("invalid-codec", "inner chunks do not divide the shard");
  }
  const location = "index_location" in conf ? conf.index_location : "end";
  if (location !== "start" && location !== "end") refuse("invalid-codec", `index_location ${JSON.stringify(location)}`);
  if (location === "start" && !CAPABILITIES.has("feature:sharding-index-start")) unsupported("index_location start");
  const grid = shard.map((n, d) => n / inner[d]), count = grid.reduce((a, b) => a * b, 1);
  const codecs = parsePipeline(conf.codecs, inner, dtype, fill, vocabulary, "sharding codecs");
  if (conf.codecs.some((c) => isObject(c) && c.name === "sharding_indexed")) unsupported("nested sharding (feature:sharding-nested)");
  const U64 = { kind: "u", size: 8 };
  const index = parsePipeline(conf.index_codecs, [...grid, 2], U64, Buffer.alloc(8), vocabulary, "index_codecs");
  if (index.fixed === null) refuse("invalid-codec", "the shard index codecs are not of fixed size");
  const perInner = inner.reduce((a, b) => a * b, 1) * dtype.size;
  return (raw) => {
    if (raw.length < index.fixed) refuse("corrupt-shard-index", "shard shorter than its index");
    const at = location === "end" ? raw.length - index.fixed : 0;
    const table = index.decode(raw.subarray(at, at + index.fixed));
    const out = Buffer.alloc(shard.reduce((a, b) => a * b, 1) * dtype.size);
    for (let e = 0; e < out.length / dtype.size; e++) fill.copy(out, e * dtype.size);
    const idx = grid.map(() => 0);
    for (let n = 0; n < count; n++) {
      const offset = table.readBigUInt64LE(16 * n), nbytes = table.readBigUInt64LE(16 * n + 8);
      if (offset !== 2n ** 64n - 1n || nbytes !== 2n ** 64n - 1n) {
        // inner chunks lie in the shard outside its index
        const [lo, hi] = location === "end" ? [0, raw.length - index.fixed] : [index.fixed, raw.length];
        if (offset < BigInt(lo) || offset + nbytes > BigInt(hi)) refuse("corrupt-shard-index", `inner chunk ${n} outside the shard's data`);
        const chunk = codecs.decode(raw.subarray(Number(offset), Number(offset + nbytes)));
        if (chunk.length !== perInner) refuse("corrupt-chunk", "inner chunk of the wrong size");
        place(out, chunk, shard, inner, idx, dtype.size);
      }
      let d = grid.length - 1;
      while (d >= 0 && ++idx[d] === grid[d]) idx[d--] = 0;
    }
    return out;
  };
}

function readArray(store, prefix, shape, chunks, dtype, fill, key, decode) {
  const size = dtype.size, total = shape.reduce((a, b) => a * b, 1);
  const out = Buffer.alloc(total * size);
  for (let e = 0; e < total; e++) fill.copy(out, e * size);
  const grid = shape.map((n, d) => Math.ceil(n / chunks[d]));
  if (grid.some((n) => n === 0)) return out;
  const idx = grid.map(() => 0);
  for (;;) {
    const raw = readKey(store, prefix + key(idx));
    if (raw !== null) {
      place(out, decode(raw), shape, chunks, idx, size);
    }
    let d = grid.length - 1;
    while (d >= 0 && ++idx[d] === grid[d]) idx[d--] = 0;
    if (d < 0) return out;
  }
}

// A chunk of shape `from` that a transpose by `order` made: element t holds input element c with
// c[order[i]] = t[i]; returns the input, in C order.
function untranspose(chunk, from, order, size) {
  const rank = from.length, out = Buffer.alloc(chunk.length), t = from.map(() => 0);
  const input = [];
  order.forEach((axis, i) => { input[axis] = from[i]; });
  for (let e = 0; e < chunk.length / size; e++) {
    let c = 0;
    for (let axis = 0; axis < rank; axis++) c = c * input[axis] + t[order.indexOf(axis)];
    chunk.copy(out, c * size, e * size, e * size + size);
    let d = rank - 1;
    while (d >= 0 && ++t[d] === from[d]) t[d--] = 0;
  }
  return out;
}

const CRC32C = Array.from({ length: 256 }, (_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? (n >>> 1) ^ 0x82f63b78 : n >>> 1;
  return n >>> 0;
});

function checkCrc32c(raw) {
  if (raw.length < 4) refuse("corrupt-chunk", "too short to hold its crc32c");
  let crc = 0xffffffff;
  for (let k = 0; k < raw.length - 4; k++) crc = CRC32C[(crc ^ raw[k]) & 0xff] ^ (crc >>> 8);
  if (((crc ^ 0xffffffff) >>> 0) !== raw.readUInt32LE(raw.length - 4)) refuse("checksum-mismatch", "crc32c");
  return raw.subarray(0, raw.length - 4);
}

function place(out, chunk, shape, chunks, idx, size) {
  const rank = shape.length, pos = chunks.map(() => 0);
  const extent = chunks.map((c, d) => Math.min(c, shape[d] - idx[d] * c));
  if (extent.some((n) => n <= 0)) return;
  for (;;) {
    let src = 0, dst = 0;
    for (let d = 0; d < rank; d++) {
      src = src * chunks[d] + pos[d];
      dst = dst * shape[d] + idx[d] * chunks[d] + pos[d];
    }
    chunk.copy(out, dst * size, src * size, src * size + size);
    let d = rank - 1;
    while (d >= 0 && ++pos[d] === extent[d]) pos[d--] = 0;
    if (d < 0) return;
  }
}

// ---- expected values: NumPy .npy v1/v2/v3 --------------------------------------------------------
function loadNpy(file) {
  const b = fs.readFileSync(file);
  if (b.subarray(0, 6).toString("latin1") !== "\x93NUMPY") throw new Error(`${file}: not .npy`);
  const major = b[6], len = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8), start = major === 1 ? 10 : 12;
  const header = b.subarray(start, start + len).toString("latin1");
  const descr = /'descr':\s*'([^']*)'/.exec(header), shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || /'fortran_order':\s*True/.test(header)) unsupported(`${path.basename(file)}: header ${header.trim()}`);
  const m = /^([<>|])([biufc])([0-9]+)$/.exec(descr[1]);
  if (!m) unsupported(`${path.basename(file)}: data type ${descr[1]}`);
  const size = Number(m[3]), data = Buffer.from(b.subarray(start + len));
  if (m[1] === ">") swap(data, m[2] === "c" ? size / 2 : size);
  return { kind: m[2], size, shape: shape[1].split(",").map((s) => s.trim()).filter(Boolean).map(Number), data };
}

function dtypeOf(descr) {
  const m = typeof descr === "string" && /^[<>|=]?([biufc])([0-9]+)$/.exec(descr);
  return m ? `${m[1]}${m[2]}` : JSON.stringify(descr);
}

// ---- the algorithm of fixtures/README.md, "Writing a runner" -------------------------------------
function judgeRead(dir, exp, node) {
  const problems = [];
  if (node.node_type !== exp.node_type) return { outcome: "failed", message: `opened as ${node.node_type}, expected ${exp.node_type}` };
  if (!same(exp.attributes, node.attributes)) problems.push("attributes differ");
  if (node.node_type === "group") {
    if (!same(exp.members, node.members())) problems.push(`members differ: ${JSON.stringify(node.members())}`);
    return problems.length ? { outcome: "failed", message: problems.join("; ") } : { outcome: "passed" };
  }
  if (!exp.data) unsupported("expected values as JSON (variable-length types)");
  const want = loadNpy(path.join(dir, exp.data));
  const got = node.read();
  if (`${want.kind}${want.size}` !== `${node.dtype.kind}${node.dtype.size}`) {
    return { outcome: "failed", message: `data type ${node.dtype.kind}${node.dtype.size}, expected ${want.kind}${want.size}` };
  }
  if (want.shape.join() !== node.shape.join()) problems.push(`shape ${node.shape}, expected.npy has ${want.shape}`);
  const mask = exp.undefined ? loadNpy(path.join(dir, exp.undefined)).data : null;
  let wrong = 0;
  if (got.length !== want.data.length) wrong = -1;
  else for (let e = 0, s = want.size; e < got.length / s; e++) {
    if (mask && mask[e]) continue;
    if (got.compare(want.data, e * s, e * s + s, e * s, e * s + s) !== 0) wrong++;
  }
  if (wrong) return { outcome: "wrong-data", message: wrong < 0 ? "wrong number of elements" : `${wrong} elements differ` };
  // what the API reports, where the case says
  if (numbers(exp.shape).join() !== node.shape.join()) problems.push(`api/shape ${node.shape}`);
  if (dtypeOf(exp.dtype) !== `${node.dtype.kind}${node.dtype.size}`) problems.push(`api/dtype ${exp.dtype}`);
  if (exp.chunk_shape && numbers(exp.chunk_shape).join() !== node.chunks.join()) problems.push(`api/chunk_shape ${node.chunks}`);
  if (exp.fill_value && exp.fill_value.bytes !== node.fill.toString("hex")) problems.push(`api/fill_value ${node.fill.toString("hex")}`);
  if ("dimension_names" in exp && !same(exp.dimension_names, node.dimension_names)) problems.push("api/dimension_names");
  return problems.length ? { outcome: "failed", message: problems.join("; ") } : { outcome: "passed" };
}

// vocabulary: {names: the capability names of capabilities.json, tiers: outcomes.json's tiers}
export function runCase(dir, vocabulary) {
  const c = parseJSON(fs.readFileSync(path.join(dir, "case.json")), "case.json");
  const head = { id: c.id, kind: c.kind, tier: c.tier };
  const lacking = c.needs.filter((n) => !CAPABILITIES.has(n));
  if (c.kind !== "read" && c.kind !== "reject") return { ...head, outcome: "unsupported", message: `kind ${c.kind}` };
  if (lacking.length) return { ...head, outcome: "unsupported", message: `needs ${lacking.join(", ")}` };
  if (c.store !== "store") return { ...head, outcome: "unsupported", message: `store ${c.store}` };
  const store = path.join(dir, c.store);
  try {
    let node;
    try {
      node = open(store, c.format, c.node, vocabulary.names);
      if (c.kind === "reject") {
        if (node.node_type === "array") node.read(); else node.members();
      }
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      if (c.kind === "reject") return { ...head, outcome: "passed", message: e.message };
      return { ...head, outcome: vocabulary.tiers[c.tier].may_refuse ? "declined" : "failed", message: `refused: ${e.message}` };
    }
    if (c.kind === "reject") {
      const outcome = vocabulary.tiers[c.tier].may_accept ? "lenient" : "failed";
      return { ...head, outcome, message: `accepted (expected ${c.expect.reason})` };
    }
    return { ...head, ...judgeRead(dir, c.expect, node) };
  } catch (e) {
    if (e instanceof Unsupported) return { ...head, outcome: "unsupported", message: `runner limitation: ${e.message}` };
    return { ...head, outcome: "errored", message: String(e && e.stack || e) };
  }
}

function* caseDirs(root, rel = "") {
  const dir = path.join(root, rel);
  if (fs.existsSync(path.join(dir, "case.json"))) { yield rel; return; }
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory() && !e.name.startsWith(".")) yield* caseDirs(root, rel ? `${rel}/${e.name}` : e.name);
  }
}

function main(argv) {
  const root = argv[0];
  if (!root || argv.includes("--help")) {
    console.log("usage: node runner.mjs FIXTURES [--cases PREFIX] [--jsonl]\n" +
      "Runs the v2/v3 read and reject cases this reader can decode by fixtures/README.md " +
      "('Writing a runner'); every other case is unsupported. Exit 1 when a case it runs does not pass.");
    return root ? 0 : 2;
  }
  const only = argv.includes("--cases") ? argv[argv.indexOf("--cases") + 1] : "";
  const jsonl = argv.includes("--jsonl");
  const load = (name) => JSON.parse(fs.readFileSync(path.join(root, name), "utf-8"));
  const vocabulary = { names: new Set(Object.keys(load("capabilities.json").capabilities)), tiers: load("outcomes.json").tiers };
  for (const c of CAPABILITIES) if (!vocabulary.names.has(c)) throw new Error(`capability ${c} is not in capabilities.json`);
  const counts = {};
  let bad = 0;
  const started = Date.now();
  for (const rel of caseDirs(root)) {
    if (!/^v[23]\//.test(rel) || !rel.startsWith(only)) continue;
    const r = runCase(path.join(root, rel), vocabulary);
    counts[r.outcome] = (counts[r.outcome] || 0) + 1;
    if (r.outcome !== "passed" && r.outcome !== "unsupported") bad++;
    if (jsonl) console.log(JSON.stringify(r));
    else if (r.outcome !== "unsupported") console.log(`${r.outcome.padEnd(12)} ${r.id}${r.outcome === "passed" ? "" : `: ${r.message}`}`);
  }
  const summary = Object.entries(counts).sort().map(([k, v]) => `${v} ${k}`).join(", ");
  console.error(`js-runner: ${summary} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return bad ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
