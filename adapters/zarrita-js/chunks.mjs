// Array data between zarrita's chunks ({data, shape, stride}) and the harness's array files: .npy
// for fixed-size types (C order, little-endian), JSON for variable-length strings.
import { readFileSync, writeFileSync } from "node:fs";
import * as zarr from "zarrita";
import { readNpy, writeNpy } from "./npy.mjs";
import { Unsupported } from "./protocol.mjs";

const DESCR = {
  int8: "|i1", uint8: "|u1", int16: "<i2", uint16: "<u2", int32: "<i4", uint32: "<u4",
  int64: "<i8", uint64: "<u8", float16: "<f2", float32: "<f4", float64: "<f8", bool: "|b1",
};

export function descrOf(dtype) {
  if (DESCR[dtype]) return DESCR[dtype];
  let m = /^v2:([US])(\d+)$/.exec(dtype);
  if (m) return m[1] === "U" ? `<U${m[2]}` : `|S${m[2]}`;
  return null; // variable-length: travels as JSON
}

export function cStrides(shape) {
  let strides = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = step;
    step *= shape[i];
  }
  return strides;
}

// Flat source indices of a strided chunk, visited in C order.
function* cOrder(shape, stride) {
  let size = shape.reduce((a, b) => a * b, 1);
  if (size === 0) return;
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

function isCContiguous(shape, stride) {
  let c = cStrides(shape);
  return shape.every((n, d) => n <= 1 || stride[d] === c[d]);
}

function chunkBytes(chunk) {
  let { data, shape, stride } = chunk;
  let raw = data._data ?? data; // ByteStringArray keeps its bytes in _data
  let bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  if (isCContiguous(shape, stride)) return bytes;
  let item = data.BYTES_PER_ELEMENT;
  let out = new Uint8Array(bytes.length);
  let n = 0;
  for (let offset of cOrder(shape, stride)) {
    out.set(bytes.subarray(offset * item, (offset + 1) * item), n * item);
    n++;
  }
  return out;
}

export function saveChunk(output, dtype, chunk) {
  let descr = descrOf(dtype);
  if (descr !== null) {
    writeNpy(output, descr, chunk.shape, chunkBytes(chunk));
    return { path: output, dtype: descr };
  }
  let values = [];
  for (let offset of cOrder(chunk.shape, chunk.stride)) values.push(chunk.data[offset]);
  let kind = values.some((v) => v instanceof Uint8Array) ? "bytes" : "string";
  if (kind === "bytes") values = values.map((v) => String.fromCharCode(...v));
  let path = output.replace(/\.npy$/, "") + ".json";
  writeFileSync(path, JSON.stringify({ shape: chunk.shape, kind, values }));
  return { path, dtype: "|O" };
}

const FROM_DESCR = {
  i1: ["int8", Int8Array], u1: ["uint8", Uint8Array], i2: ["int16", Int16Array],
  u2: ["uint16", Uint16Array], i4: ["int32", Int32Array], u4: ["uint32", Uint32Array],
  i8: ["int64", BigInt64Array], u8: ["uint64", BigUint64Array], f4: ["float32", Float32Array],
  f8: ["float64", Float64Array],
};

function byteswap(bytes, item) {
  for (let i = 0; i < bytes.length; i += item) bytes.subarray(i, i + item).reverse();
}

// The request's input array as a zarrita chunk {data, shape, stride}.
export function loadChunk(path) {
  if (path.endsWith(".json")) {
    let doc = JSON.parse(readFileSync(path, "utf8"));
    if (doc.kind !== "string") throw new Unsupported("zarrita writes no variable-length bytes");
    return { data: doc.values, shape: doc.shape, stride: cStrides(doc.shape) };
  }
  let npy = readNpy(path);
  let m = /^([<>|=])([a-zA-Z])(\d+)$/.exec(npy.descr);
  if (!m) throw new Unsupported(`zarrita has no data type for numpy ${npy.descr}`);
  let [, order, kind, size] = m;
  let stride = npy.fortranOrder ? cStrides([...npy.shape].reverse()).reverse() : cStrides(npy.shape);
  if (kind === "b" && size === "1") {
    return { data: new zarr.BoolArray(npy.bytes.buffer), shape: npy.shape, stride };
  }
  let entry = FROM_DESCR[kind + size];
  if (!entry) throw new Unsupported(`zarrita has no data type for numpy ${npy.descr}`);
  if (order === ">") byteswap(npy.bytes, Number(size));
  return { data: new entry[1](npy.bytes.buffer), shape: npy.shape, stride };
}
