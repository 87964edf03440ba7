"""What a node of a store needs of a reader, in the corpus's capability vocabulary
(conformance/corpus/capabilities.py), plus the traits of its fill value that the vocabulary has no
name for. The same function describes a stranger's store and the corpus's own cases, so that a
known failure evidenced on cases can be matched to the store (advice.py).

    needs, traits = array_features(array)      # a reference Array (v2 or v3)
    needs  -> {"format:v3", "dtype:uint64", "codec:bytes", "codec:gzip", ...}
    traits -> {"fill:beyond-2^53", "fill:nonzero", ...}
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance.corpus.capabilities import REGISTRY_CAPABILITY, VOCABULARY
from conformance.reference.array import Array

NUMCODECS_PREFIX = "numcodecs."
MAX_SAFE_INTEGER = 2**53  # a JSON number parsed as a double holds integers up to this exactly


def array_features(array: Array) -> tuple[set[str], set[str]]:
    """(needs, traits) of a reference Array."""
    fmt = array.format.name
    doc = array.metadata if isinstance(array.metadata, dict) else {}
    needs = {f"format:{fmt}", "op:read"}
    if fmt == "v3":
        needs |= _v3_needs(doc)
    elif fmt in ("v2", "v1"):
        needs |= _v2_needs(doc, array.dtype)
    shape = tuple(array.shape)
    if not shape:
        needs.add("feature:0d")
    elif 0 in shape:
        needs.add("feature:zero-length")
    if array.attrs:
        needs.add("feature:attributes")
    if any(not part.isascii() for part in array.path.split("/")):
        needs.add("feature:unicode-names")
    traits = fill_traits(array.fill_value, array.dtype, doc.get("fill_value"))
    traits |= layout_traits(doc, fmt)
    names = [n for n in doc.get("dimension_names") or () if n is not None]
    if len(set(names)) < len(names):
        traits.add("dimension-names:duplicate")
    if "feature:fill-null" in needs:
        traits.add("fill:null")
    return needs, traits


def group_features(format: str, path: str, document: dict[str, Any] | None) -> set[str]:
    needs = {f"format:{format}", "op:read", "node:group"}
    if any(not part.isascii() for part in path.split("/") if part):
        needs.add("feature:unicode-names")
    if isinstance(document, dict) and document.get("consolidated_metadata"):
        needs.add("feature:consolidated")
    return needs


def known(names: set[str]) -> set[str]:
    """The names of the capability vocabulary among `names` (others describe the store, but no
    adapter can declare them)."""
    return {n for n in names if n in VOCABULARY}


# ---- v3 ------------------------------------------------------------------------------------------
def _v3_needs(doc: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    data_type = doc.get("data_type")
    name = data_type.get("name") if isinstance(data_type, dict) else data_type
    if isinstance(name, str):
        out.add("dtype:r*" if name[:1] == "r" and name[1:].isdigit() else f"dtype:{name}")
    grid = doc.get("chunk_grid")
    grid_name = grid.get("name") if isinstance(grid, dict) else grid
    if isinstance(grid_name, str) and grid_name != "regular":
        out.add(f"grid:{grid_name}")
    encoding = doc.get("chunk_key_encoding")
    encoding_name = encoding.get("name") if isinstance(encoding, dict) else encoding
    if encoding_name == "v2":
        out.add("feature:chunk-key-encoding-v2")
    elif isinstance(encoding_name, str) and encoding_name != "default":
        out.add(f"cke:{encoding_name}")
    names = doc.get("dimension_names")
    if names is not None:
        out.add("feature:dimension-names")
    if doc.get("storage_transformers"):
        out.add("feature:storage-transformers")
    if isinstance(grid, str) or isinstance(encoding, str):  # 3.1 short-hand spellings
        out.add("feature:shorthand-names")
    if any(isinstance(v, dict) and v.get("must_understand") is False for v in doc.values()):
        out.add("feature:must-understand-false")
    out |= _codec_needs(doc.get("codecs"), depth=0)
    return out


def _codec_needs(codecs: Any, depth: int) -> set[str]:
    out: set[str] = set()
    for codec in codecs if isinstance(codecs, list) else ():
        name = codec if isinstance(codec, str) else (codec or {}).get("name")
        if not isinstance(name, str):
            continue
        if isinstance(codec, str):
            out.add("feature:shorthand-names")
        if name.startswith(NUMCODECS_PREFIX):
            name = name[len(NUMCODECS_PREFIX) :]
        out.add(REGISTRY_CAPABILITY.get(f"codec:{name}", f"codec:{name}"))
        if not isinstance(codec, dict):
            continue
        if codec.get("must_understand") is False:
            out.add("feature:must-understand-false")
        conf = codec.get("configuration") or {}
        if name == "bytes" and conf.get("endian") == "big":
            out.add("dtype:big-endian")
        if name == "sharding_indexed":
            if depth:
                out.add("feature:sharding-nested")
            if conf.get("index_location") == "start":
                out.add("feature:sharding-index-start")
            out |= _codec_needs(conf.get("codecs"), depth + 1)
            out |= _codec_needs(conf.get("index_codecs"), depth + 1)
    return out


# ---- v2 (and v1) -----------------------------------------------------------------------------------
def _v2_needs(doc: dict[str, Any], dtype: np.dtype) -> set[str]:
    from conformance.corpus.builders.v2_kit import dtype_needs

    out = set(dtype_needs(dtype))
    for codec in [*(doc.get("filters") or []), doc.get("compressor")]:
        if isinstance(codec, dict) and isinstance(codec.get("id"), str):
            out.add(f"codec:{codec['id']}")
    if doc.get("order") == "F":
        out.add("feature:order-F")
    if doc.get("dimension_separator") == "/":
        out.add("feature:dimension-separator-slash")
    if "fill_value" in doc and doc["fill_value"] is None:
        out.add("feature:fill-null")
    return out


def layout_traits(doc: dict[str, Any], fmt: str) -> set[str]:
    """Where codecs sit, which readers have got wrong: around sharding, v2 filters at all."""
    out: set[str] = set()
    if fmt in ("v2", "v1") and doc.get("filters"):
        out.add("v2:filters")
    names = [c if isinstance(c, str) else (c or {}).get("name") for c in doc.get("codecs") or []]
    if "sharding_indexed" in names:
        at = names.index("sharding_indexed")
        if at + 1 < len(names):
            out.add("codecs:after-sharding")
        if at > 0:
            out.add("codecs:before-sharding")
    return out


# ---- fill values ---------------------------------------------------------------------------------
def fill_traits(fill: Any, dtype: np.dtype, raw: Any) -> set[str]:
    """What about a fill value has tripped readers: not zero, beyond a double's integers, NaN and
    its payloads, infinities, -0.0, the hex and base64 string forms."""
    out: set[str] = set()
    if isinstance(raw, str) and raw.startswith("0x"):
        out.add("fill:hex-string")
    if fill is None:
        return out
    value = np.asarray(fill, dtype=dtype).reshape(())
    if dtype.hasobject:
        if value[()] not in ("", b""):
            out.add("fill:nonzero")
        return out
    if any(np.asarray(value).tobytes()):
        out.add("fill:nonzero")
    if dtype.kind in "iu" and abs(int(value)) > MAX_SAFE_INTEGER:
        out.add("fill:beyond-2^53")
    if dtype.kind in "fc":
        parts = [value.real, value.imag] if dtype.kind == "c" else [value]
        for part in parts:
            number = float(part)
            if math.isnan(number):
                out.add("fill:nan")
                if np.asarray(part).tobytes() != np.array(np.nan, dtype=part.dtype).tobytes():
                    out.add("fill:nan-payload")  # not the canonical quiet NaN "NaN" denotes
            elif math.isinf(number):
                out.add("fill:infinity")
            elif number == 0 and math.copysign(1, number) < 0:
                out.add("fill:negative-zero")
    if dtype.kind == "S" and isinstance(raw, str) and raw:
        out.add("fill:base64")
    if dtype.kind == "f" and dtype.itemsize < 8 and isinstance(raw, (int, float)):
        # a decimal read as a double first, then rounded again, lands elsewhere
        twice = np.asarray(float(raw), dtype=np.float64).astype(dtype)
        if twice.tobytes() != value.tobytes():
            out.add("fill:double-rounding")
    return out
