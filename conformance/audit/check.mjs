// The judge every JavaScript reproducer carries (conformance/audit/check.py is the Python one;
// `zarr-conformance reproduce` pastes this file into the script it prints, after its CASE).
// A template defines `read(store, node, format)` or `write(store, request)` through the
// implementation's public API and ends with `await runRead(read, CASE)` / `runWrite(write, CASE)`.
// Data are compared bit for bit: a read returns {descr, shape, bytes} (a NumPy type string and the
// little-endian bytes in C order) or {shape, values} (variable-length strings); values exact in
// another type are a type change. JSON is compared as JavaScript holds it (1 and 1.0 are one
// number here). The last line printed is MARK + JSON, which `zarr-conformance audit` reads.
// Namespaced: the template imports from the same modules under its own names.
import * as judgeFs from "node:fs";
import * as judgeOs from "node:os";
import * as judgePath from "node:path";

const MARK = "zarr-conformance-reproduce:";

// ---- .npy files ---------------------------------------------------------------------------------

function readNpy(path) {
  let buf = judgeFs.readFileSync(path);
  let bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let major = bytes[6];
  let view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let length = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  let start = major === 1 ? 10 : 12;
  let header = new TextDecoder("latin1").decode(bytes.subarray(start, start + length));
  let descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  let fortran = /'fortran_order':\s*True/.test(header);
  let dims = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(",").map((s) => s.trim()).filter(Boolean).map(Number);
  let data = bytes.slice(start + length);
  if (fortran) throw new Error(`${path}: Fortran-ordered .npy files are not read here`);
  return { descr, shape: dims, bytes: data };
}

// The expected array of a case: {descr, shape, bytes} in little-endian order, or {shape, values}.
function loadExpected(spec) {
  if (spec.data_json) {
    let values = JSON.parse(judgeFs.readFileSync(spec.data_json, "utf8"));
    if (spec.data_json_bytes) values = values.map((v) => Uint8Array.from(v, (c) => c.charCodeAt(0)));
    return { shape: spec.shape, values };
  }
  let npy = readNpy(spec.data);
  return { ...npy, bytes: littleEndian(npy.descr, npy.bytes), descr: npy.descr.replace(/^>/, "<") };
}

function itemsize(descr) {
  let m = /^[<>|=]?([a-zA-Z])(\d+)$/.exec(descr);
  if (!m) return null;
  return m[1] === "U" ? 4 * Number(m[2]) : Number(m[2]);
}

function littleEndian(descr, bytes) {
  if (!descr.startsWith(">")) return bytes;
  let out = bytes.slice();
  let kind = descr[1];
  let unit = kind === "U" ? 4 : kind === "c" ? itemsize(descr) / 2 : itemsize(descr);
  for (let i = 0; i < out.length; i += unit) out.subarray(i, i + unit).reverse();
  return out;
}

// ---- helpers for templates ----------------------------------------------------------------------

// The C-order strides of a shape, and a strided chunk's elements visited in C order.
function cStrides(shape) {
  let strides = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = step;
    step *= shape[i];
  }
  return strides;
}

function* cOrder(shape, stride) {
  let size = shape.reduce((a, b) => a * b, 1);
  let index = new Array(shape.length).fill(0);
  for (let n = 0; n < size; n++) {
    let offset = 0;
    for (let d = 0; d < shape.length; d++) offset += index[d] * stride[d];
    yield offset;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// The bytes of a typed array (element size `item`) in C order, given its shape and strides.
function cOrderBytes(typed, shape, stride, item) {
  let raw = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  let out = new Uint8Array(shape.reduce((a, b) => a * b, 1) * item);
  let n = 0;
  for (let offset of cOrder(shape, stride ?? cStrides(shape))) {
    out.set(raw.subarray(offset * item, (offset + 1) * item), n * item);
    n++;
  }
  return out;
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---- values, for a comparison across types ------------------------------------------------------

const VIEWS = {
  i1: "getInt8", u1: "getUint8", i2: "getInt16", u2: "getUint16", i4: "getInt32", u4: "getUint32",
  i8: "getBigInt64", u8: "getBigUint64", f4: "getFloat32", f8: "getFloat64",
};

function valuesOf(array) {
  if (array.values) return array.values;
  let kind = array.descr.replace(/^[<>|=]/, "");
  let size = itemsize(array.descr);
  let count = size ? array.bytes.length / size : 0;
  let view = new DataView(array.bytes.buffer, array.bytes.byteOffset, array.bytes.byteLength);
  let out = [];
  for (let i = 0; i < count; i++) {
    if (kind === "b1") out.push(array.bytes[i] !== 0);
    else if (VIEWS[kind]) out.push(view[VIEWS[kind]](i * size, true));
    else if (kind[0] === "S") out.push(new TextDecoder("latin1").decode(array.bytes.subarray(i * size, (i + 1) * size)).replace(/\0+$/, ""));
    else if (kind[0] === "U") {
      let text = "";
      for (let j = 0; j < size; j += 4) {
        let code = view.getUint32(i * size + j, true);
        if (code) text += String.fromCodePoint(code);
      }
      out.push(text);
    } else return null;
  }
  return out;
}

function sameValue(a, b) {
  if (typeof a === "bigint" || typeof b === "bigint") {
    try {
      return BigInt(a) === BigInt(b);
    } catch {
      return false;
    }
  }
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

// ---- the verdict -------------------------------------------------------------------------------

function defined(expect, count) {
  if (!expect.undefined) return null;
  let mask = readNpy(expect.undefined).bytes;
  return mask.length === count ? mask : null;
}

function compareData(expect, observed) {
  let expected = loadExpected(expect);
  if (!observed) return ["wrong-data", ["data: nothing returned"]];
  let shape = observed.shape ?? [];
  if (JSON.stringify(shape) !== JSON.stringify(expected.shape)) {
    return ["wrong-data", [`data: shape ${JSON.stringify(shape)} != expected ${JSON.stringify(expected.shape)}`]];
  }
  let count = expected.shape.reduce((a, b) => a * b, 1);
  let mask = defined(expect, count);
  let skip = (i) => mask !== null && mask[i] !== 0;
  if (expected.values || observed.values) {
    let want = valuesOf(expected);
    let got = valuesOf(observed);
    let bad = want && got ? want.findIndex((v, i) => !skip(i) && !sameValue(v, got[i])) : 0;
    if (bad < 0) return [expected.values && observed.values ? null : "type-changed", expected.values && observed.values ? [] : ["data: every value exact, in another type"]];
    return ["wrong-data", [`data: elements differ, first at flat index ${bad}: ${String(got?.[bad])} != ${String(want?.[bad])}`]];
  }
  let sameType = observed.descr.replace(/^[<>|=]/, "") === expected.descr.replace(/^[<>|=]/, "");
  if (sameType) {
    let size = itemsize(expected.descr);
    for (let i = 0; i < count; i++) {
      if (skip(i)) continue;
      let a = expected.bytes.subarray(i * size, (i + 1) * size);
      let b = observed.bytes.subarray(i * size, (i + 1) * size);
      if (a.length !== b.length || a.some((x, j) => x !== b[j])) {
        let differing = 0;
        for (let k = 0; k < count; k++) {
          let x = expected.bytes.subarray(k * size, (k + 1) * size);
          let y = observed.bytes.subarray(k * size, (k + 1) * size);
          if (!skip(k) && x.some((v, j) => v !== y[j])) differing++;
        }
        return ["wrong-data", [`data: ${differing} of ${count} elements differ bit-wise; first at flat index ${i}: got bytes ${hex(b)}, expected bytes ${hex(a)}`]];
      }
    }
    return [null, []];
  }
  let want = valuesOf(expected);
  let got = valuesOf(observed);
  if (want && got && want.length === got.length && want.every((v, i) => skip(i) || sameValue(v, got[i]))) {
    return ["type-changed", [`data: every value exact, as ${observed.descr} where ${expected.descr} is expected`]];
  }
  return ["wrong-data", [`data: dtype ${observed.descr} where ${expected.descr} is expected, values differ`]];
}

function jsonDifferences(want, got, where = "") {
  let here = where || "/";
  let kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(want) !== kind(got)) return [`${here}: ${JSON.stringify(got)} where ${JSON.stringify(want)} is expected`];
  if (kind(want) === "array") {
    if (want.length !== got.length) return [`${here}: ${got.length} items where ${want.length} are expected`];
    return want.flatMap((v, i) => jsonDifferences(v, got[i], `${where}/${i}`));
  }
  if (kind(want) === "object") {
    let keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].sort();
    return keys.flatMap((k) => {
      if (!(k in got)) return [`${where}/${k}: missing`];
      if (!(k in want)) return [`${where}/${k}: unexpected member ${JSON.stringify(got[k])}`];
      return jsonDifferences(want[k], got[k], `${where}/${k}`);
    });
  }
  return sameValue(want, got) ? [] : [`${here}: ${JSON.stringify(got)} where ${JSON.stringify(want)} is expected`];
}

function judgeRead(expect, result) {
  if (result.nodeType !== expect.node_type) return ["mismatch", [`opened as ${result.nodeType}, expected ${expect.node_type}`]];
  let problems = [];
  if ("attributes" in expect && result.attributes != null) problems.push(...jsonDifferences(expect.attributes, result.attributes, "attributes"));
  if (expect.node_type === "group") {
    if ("members" in expect && result.members != null) problems.push(...jsonDifferences(expect.members, result.members, "members"));
    return [problems.length ? "mismatch" : "passed", problems];
  }
  let [kind, data] = compareData(expect, result.data);
  let api = result.api ?? {};
  for (let member of ["shape", "chunk_shape", "dimension_names"]) {
    if (member in api && member in expect) problems.push(...jsonDifferences(expect[member], api[member], `api/${member}`));
  }
  if (kind !== "type-changed" && "fill_value" in api && "fill_value" in expect) {
    let want = expect.fill_value.bytes !== undefined ? { bytes: expect.fill_value.bytes.toLowerCase() } : expect.fill_value;
    problems.push(...jsonDifferences(want, api.fill_value, "api/fill_value"));
  }
  if (kind === "wrong-data") return [kind, [...problems, ...data]];
  if (problems.length) return ["mismatch", [...problems, ...data]];
  return [kind ?? "passed", data];
}

function errorOf(err) {
  let message = String(err?.message ?? err);
  for (let cause = err?.cause, depth = 0; cause != null && depth < 5; cause = cause.cause, depth++) {
    message += ` (cause: ${cause?.name ?? typeof cause}: ${cause?.message ?? cause})`;
  }
  // zarr.js's errors carry their class name in `__zarr__` (their `name` is "Error")
  return { type: err?.__zarr__ || err?.name || err?.constructor?.name || typeof err, module: null, message };
}

function finish(behaviour, problems = [], error = null, expected = ["passed"]) {
  console.log(`observed: ${behaviour}`);
  if (error) console.log(`  ${error.type}: ${error.message}`);
  for (let line of problems) console.log(`  ${line}`);
  console.log(`${MARK} ${JSON.stringify({ behaviour, error, problems })}`);
  process.exit(expected.includes(behaviour) ? 0 : 1);
}

async function runRead(read, c) {
  let reject = c.kind === "reject";
  console.log(`reading node ${JSON.stringify(c.node)} of ${c.store} (format ${c.format})`);
  let result;
  try {
    result = await read(c.store, c.node, c.format);
  } catch (err) {
    finish("refused", [], errorOf(err), reject ? ["refused"] : ["passed"]);
  }
  if (reject) finish("accepted", [`it read ${result.nodeType}; the store must be refused`], null, ["refused"]);
  let [behaviour, problems] = judgeRead(c.expect, result);
  finish(behaviour, problems);
}

function outputStore() {
  if (process.argv[2]) {
    judgeFs.mkdirSync(process.argv[2], { recursive: true });
    return judgePath.resolve(process.argv[2]);
  }
  return judgeFs.mkdtempSync(judgePath.join(judgeOs.tmpdir(), "zarr-reproduce-"));
}

function showStore(folder, limit = 40) {
  let keys = [];
  let walk = (dir) => {
    for (let entry of judgeFs.readdirSync(dir, { withFileTypes: true })) {
      let full = judgePath.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else keys.push(judgePath.relative(folder, full).split(judgePath.sep).join("/"));
    }
  };
  walk(folder);
  keys.sort();
  console.log(`the store holds ${keys.length} keys:`);
  for (let key of keys.slice(0, limit)) {
    console.log(`  ${key} (${judgeFs.statSync(judgePath.join(folder, key)).size} bytes)`);
    if (/(^|\/)(zarr\.json|\.zarray|\.zgroup|\.zattrs)$/.test(key)) console.log("    " + judgeFs.readFileSync(judgePath.join(folder, key), "utf8").replace(/\n/g, "\n    "));
  }
  if (keys.length > limit) console.log(`  ... and ${keys.length - limit} more`);
}

async function runWrite(write, c) {
  let request = { ...c.request, array: c.request.data || c.request.data_json ? loadExpected(c.request) : null };
  let store = outputStore();
  let mustFail = "must_fail" in c;
  console.log(`writing ${request.node_type} ${JSON.stringify(request.path)} (format ${c.format}) into ${store}`);
  try {
    await write(store, request);
  } catch (err) {
    finish("refused", [], errorOf(err), mustFail ? ["refused"] : ["written"]);
  }
  showStore(store);
  if (mustFail) finish("accepted", [`the request must be refused (${c.must_fail})`], null, ["refused"]);
  finish("written", [`store: ${store}`], null, ["written"]);
}
