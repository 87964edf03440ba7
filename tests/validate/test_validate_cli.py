"""`zarr-conformance validate` on hand-written stores: findings, requirement IDs, exit codes."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from conformance.reference.errors import REASONS
from conformance.testing.documents import (
    V2_GROUP,
    V3_GROUP,
    bytes_codec,
    raw_chunk,
    v2_array,
    v3_array,
)
from conformance.validate.requirement_map import catalogue_levels


def assert_well_formed(output):
    """Every line is a finding or the summary; IDs exist in the catalogue; reasons are known."""
    ids = catalogue_levels()
    for line in output.lines:
        assert line.startswith(("SUMMARY ", "NODE ", "sample: ")) or output.findings, line
    for _level, requirement, reason, _path, _message in output.findings:
        assert requirement == "-" or requirement in ids, requirement
        assert reason in REASONS, reason
    assert "Traceback" not in output.out + output.err


# ---- a valid store, the sample -------------------------------------------------------------
def test_sample_passes_and_says_what_it_checked(run_cli):
    output = run_cli("--sample")
    assert output.code == 0, output
    assert_well_formed(output)
    assert "SUMMARY PASS" in output.summary
    assert "format v3" in output.summary and "3 nodes (1 group, 2 arrays)" in output.summary
    assert "15 chunks checked" in output.summary
    assert any(line.startswith("NODE v3 array /counts") for line in output.lines)
    assert output.lines[0].startswith("sample: wrote a v3 group")


def test_valid_v3_hierarchy_passes(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "a/zarr.json": v3_array([5], [2]),
            "a/c/0": raw_chunk([1, 2]),
            "a/c/2": raw_chunk([5, 6]),
            "g/zarr.json": V3_GROUP,
            "g/h/zarr.json": V3_GROUP,
        }
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.findings == []
    assert "4 nodes (3 groups, 1 array); 2 chunks checked" in output.summary


# ---- errors ----------------------------------------------------------------------------------
def test_corrupt_chunk_is_an_error_with_its_key(run_cli, store_dir):
    codecs = [bytes_codec(), {"name": "gzip", "configuration": {"level": 1}}]
    root = store_dir(
        {
            "zarr.json": v3_array([4], [2], codecs=codecs),
            "c/0": gzip.compress(raw_chunk([1, 2])),
            "c/1": gzip.compress(raw_chunk([3, 4]))[:-6],  # truncated
        }
    )
    output = run_cli(root)
    assert output.code == 1, output
    errors = [f for f in output.findings if f[0] == "ERROR"]
    assert len(errors) == 1 and errors[0][2] == "corrupt-chunk" and "'c/1'" in errors[0][4]
    assert "2 chunks checked" in output.summary
    assert_well_formed(output)


def test_no_data_skips_decoding(run_cli, store_dir):
    root = store_dir({"zarr.json": v3_array([4], [2]), "c/0": b"\x00" * 3})
    assert run_cli(root).code == 1
    output = run_cli(root, "--no-data")
    assert output.code == 0 and "1 chunk found (not decoded: --no-data)" in output.summary


def test_metadata_errors_map_to_requirements(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "unknown/zarr.json": v3_array([4], [2], foo=1),
            "order/zarr.json": v3_array(
                [4], [2], codecs=[{"name": "gzip", "configuration": {"level": 1}}, bytes_codec()]
            ),
            "nofill/zarr.json": {k: v for k, v in v3_array([4], [2]).items() if k != "fill_value"},
            "json/zarr.json": b'{"zarr_format": 3, "node_type": "array",}',
            "fine/zarr.json": v3_array([4], [2]),
        }
    )
    output = run_cli(root)
    assert output.code == 1
    assert output.has("ERROR", "V3-ARR-010", "unknown-field", "/unknown")
    assert output.has("ERROR", "V3-PIPE-001", "codec-order", "/order")
    assert output.has("ERROR", "V3-ARR-003", "missing-field", "/nofill")
    assert output.has("ERROR", "V3-ARR-013", "invalid-json", "/json")
    assert not any(f[3] == "/fine" for f in output.findings)
    assert "6 nodes" not in output.summary and "5 nodes (1 group, 4 arrays)" in output.summary
    assert_well_formed(output)


def test_broken_child_does_not_hide_its_siblings_or_subtree(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "a/zarr.json": b"not json",
            "a/b/zarr.json": v3_array([2], [2]),
            "a/b/c/0": b"\x00",  # wrong size
            "z/zarr.json": v3_array([2], [2]),
            "z/c/0": b"\x01",  # wrong size
        }
    )
    output = run_cli(root)
    assert output.has("ERROR", "V3-ARR-013", "invalid-json", "/a")
    assert any(f[3] == "/a/b" and f[2] == "corrupt-chunk" for f in output.findings)
    assert any(f[3] == "/z" and f[2] == "corrupt-chunk" for f in output.findings)


def test_implicit_group_is_reported_and_its_nodes_still_checked(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "x/y/zarr.json": v3_array([2], [2]),
            "x/y/c/0": b"short",
        }
    )
    output = run_cli(root)
    assert output.code == 1
    assert output.has("ERROR", "V3-GRP-005", "implicit-group", "/x")
    assert any(f[3] == "/x/y" and f[2] == "corrupt-chunk" for f in output.findings)


def test_v2_implicit_group_and_missing_root(run_cli, store_dir):
    root = store_dir({"a/b/.zarray": v2_array([3], [3]), "a/b/0": raw_chunk([1, 2, 3])})
    output = run_cli(root)
    assert output.code == 1
    assert output.has("ERROR", "V2-GROUP-004", "implicit-group", "/")
    assert "1 array" in output.summary and "1 chunk checked" in output.summary


# ---- warnings (SHOULD level) ---------------------------------------------------------------
def test_should_level_findings_are_warnings_with_exit_0(run_cli, store_dir):
    root = store_dir(
        {
            ".zgroup": V2_GROUP,
            "extra/.zarray": v2_array([2], [2], foo=1),
            "extra/0": raw_chunk([1, 2]),
            "filters/.zarray": v2_array([2], [2], filters=[]),
            "junk": b"stray",
        }
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.has("WARNING", "V2-META-008", "unknown-field", "/extra")
    assert output.has("WARNING", "V2-META-005", "invalid-codec", "/filters")
    assert output.has("WARNING", None, "stray-key", "/")
    assert "SUMMARY PASS" in output.summary
    assert_well_formed(output)


def test_consolidated_metadata_null_is_a_warning(run_cli, store_dir):
    output = run_cli(store_dir({"zarr.json": {**V3_GROUP, "consolidated_metadata": None}}))
    assert output.code == 0
    assert output.has("WARNING", "V3-GRP-004", "unknown-field", "/")


def test_stray_chunk_keys(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": v3_array([4], [2], dimension_names=["x"]),
            "c/0": raw_chunk([1, 2]),
            "c/01": raw_chunk([9, 9]),  # not an alias of c/1 (V3-CKE-007)
            "c/7": raw_chunk([9, 9]),  # outside the grid (V3-GRID-010)
            "c.1": raw_chunk([9, 9]),  # the other separator: not this array's key
            "notes.txt": b"hello",
        }
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.has("WARNING", "V3-CKE-007", "stray-key")
    assert output.has("WARNING", "V3-GRID-010", "stray-key")
    stray = [f for f in output.findings if f[2] == "stray-key"]
    assert {m.split("'")[1] for *_, m in stray} >= {"c/01", "c/7"}
    assert "1 chunk checked" in output.summary


def test_duplicate_dimension_names_are_a_warning(run_cli, store_dir):
    output = run_cli(store_dir({"zarr.json": v3_array([2, 2], [2, 2], dimension_names=["x", "x"])}))
    assert output.code == 0 and output.has("WARNING", "V3-ARR-009", "invalid-dimension-names")


def test_mixed_formats_are_reported_and_each_validated(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": v3_array(
                [3], [3], codecs=[bytes_codec()], chunk_key_encoding={"name": "v2"}
            ),
            ".zarray": v2_array([3], [3]),
            "0": raw_chunk([1, 2, 3]),
        }
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.has("WARNING", None, "mixed-formats", "/")
    assert "format v3+v2" in output.summary and "2 chunks checked" in output.summary
    forced = run_cli(root, "--format", "v2")
    assert "format v2;" in forced.summary and not forced.has("WARNING", None, "mixed-formats", "/")


def test_v3_draft_and_v1_are_detected(run_cli, tmp_path):
    from conformance.reference import DirectoryStore, get_format

    for name in ("v3-draft", "v1"):
        fmt = get_format(name)
        store = DirectoryStore(tmp_path / name)
        array = fmt.create_array(
            store, "" if name == "v1" else "a", fmt.array_metadata((6,), (4,), "int32")
        )
        array[:] = np.arange(6)
        output = run_cli(tmp_path / name)
        assert output.code == 0, output
        assert f"format {name};" in output.summary and "2 chunks checked" in output.summary


# ---- exit codes and usage --------------------------------------------------------------------
def test_nothing_zarr_is_exit_1(run_cli, tmp_path):
    (tmp_path / "empty").mkdir()
    output = run_cli(tmp_path / "empty")
    assert output.code == 1 and output.has("ERROR", None, "node-not-found", "/")


@pytest.mark.parametrize(
    "args, message",
    [
        (["/no/such/store.zarr"], "no such file"),
        (["ftp://example.org/x.zarr"], "unsupported URL scheme"),
        ([], "exactly one of"),
        (["--sample", "x"], "exactly one of"),
        (["x", "--path", "a/../b"], "'..'"),
    ],
)
def test_usage_errors_are_exit_2(run_cli, tmp_path, args, message):
    output = run_cli(*args)
    assert output.code == 2, output
    assert message in output.err


def test_bad_option_values_are_exit_2(run_cli, tmp_path):
    assert run_cli(tmp_path, "--timeout", "-1").code == 2
    assert run_cli(tmp_path, "--format", "v4").code == 2
    assert run_cli(tmp_path, "--model", tmp_path / "missing.json").code == 2


def test_a_file_that_is_no_store_is_a_usage_error(run_cli, tmp_path):
    (tmp_path / "x.txt").write_text("hello")
    assert run_cli(tmp_path / "x.txt").code == 2


def test_path_option_starts_below_the_root(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "bad/zarr.json": b"{",
            "g/zarr.json": V3_GROUP,
            "g/a/zarr.json": v3_array([2], [2]),
            "g/a/c/0": raw_chunk([1, 2]),
        }
    )
    output = run_cli(root, "--path", "/g")
    assert output.code == 0, output
    assert "2 nodes (1 group, 1 array)" in output.summary
    assert run_cli(root, "--path", "nothing").code == 1


# ---- JSON output -----------------------------------------------------------------------------
def test_json_lines(run_cli, store_dir):
    root = store_dir({"zarr.json": v3_array([4], [2]), "c/0": b"bad"})
    output = run_cli(root, "--json")
    records = [json.loads(line) for line in output.lines]
    assert output.code == 1
    assert [r["type"] for r in records] == ["finding", "summary"]
    finding, summary = records
    assert (
        finding["level"] == "ERROR"
        and finding["reason"] == "corrupt-chunk"
        and finding["key"] == "c/0"
    )
    assert finding["path"] == "/" and finding["format"] == "v3"
    assert summary["verdict"] == "fail" and summary["exit_code"] == 1 and summary["chunks"] == 1


# ---- key and name rules the walk checks itself ---------------------------------------------
DRAFT_ENTRY = {
    "zarr_format": "https://purl.org/zarr/spec/core/3.0",
    "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
    "extensions": [],
}


def draft_sharded_array(chunks_per_shard=(2, 2)) -> dict:
    return {
        "shape": [4, 4],
        "data_type": "int32",
        "chunk_grid": {"type": "regular", "chunk_shape": [2, 2], "separator": "/"},
        "chunk_memory_layout": "C",
        "fill_value": 0,
        "extensions": [],
        "attributes": {},
        "storage_transformers": [
            {
                "extension": "https://purl.org/zarr/spec/extensions/storage_transformers/sharding/1.0",
                "type": "indexed",
                "configuration": {"chunks_per_shard": list(chunks_per_shard)},
            }
        ],
    }


def draft_shard(entries) -> bytes:
    body = raw_chunk([0, 1, 2, 3])
    index = np.array([e if e else (2**64 - 1, 2**64 - 1) for e in entries], dtype="<u8").tobytes()
    return body + index


def test_draft_sharding_transformer_checks_every_inner_chunk(run_cli, store_dir):
    """Inner chunks live inside shards: stored keys do not name positions, so every position is
    read through the reference (a bad index entry for the last inner chunk is found)."""
    good = draft_shard([(0, 16), None, None, None])
    bad = draft_shard([(0, 16), None, None, (40, 64)])
    for shard, code in ((good, 0), (bad, 1)):
        root = store_dir(
            {
                "zarr.json": DRAFT_ENTRY,
                "meta/x.array.json": draft_sharded_array(),
                "data/x/c0/0": shard,
            },
            name=f"draft{code}.zarr",
        )
        output = run_cli(root)
        assert output.code == code, output
        assert "format v3-draft" in output.summary
    assert any(
        f[0] == "ERROR" and f[2] == "corrupt-shard-index" and f[3] == "/x" for f in output.findings
    )


def test_draft_key_characters(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": DRAFT_ENTRY,
            "meta/root.group.json": {"attributes": {}},
            "meta/a b.array.json": {},
            "meta/ok.group.json": {"attributes": {}},
        }
    )
    output = run_cli(root)
    assert output.code == 1 and output.has("ERROR", "V3DRAFT-KEY-007", "invalid-path", "/")
    assert "'meta/a b.array.json'" in output.out


def test_v2_keys_are_ascii(run_cli, store_dir):
    root = store_dir(
        {
            ".zgroup": V2_GROUP,
            "caf\u00e9/.zgroup": V2_GROUP,
            "a/.zarray": v2_array([2], [2]),
            "a/0": raw_chunk([1, 2]),
        }
    )
    output = run_cli(root)
    assert output.code == 1 and output.has("ERROR", "V2-STORE-001", "invalid-path", "/")
    assert sum(1 for f in output.findings if f[1] == "V2-STORE-001") == 1


def test_reserved_names_and_keys_below_no_node(run_cli, store_dir):
    root = store_dir(
        {
            "zarr.json": V3_GROUP,
            "__ext/zarr.json": V3_GROUP,  # a node with a reserved name (V3-NAME-004)
            "__ext2/data": b"extension data: fine",
            "z/c/0": raw_chunk([1]),  # chunk-like keys of no node (V3-GRP-009: z does not exist)
        }
    )
    output = run_cli(root)
    assert output.code == 0, output
    assert output.has("WARNING", "V3-NAME-004", "invalid-node-name", "/__ext")
    assert output.has("WARNING", None, "stray-key", "/z")
    assert not any("__ext2" in f[3] for f in output.findings)
    assert "1 node (1 group, 0 arrays)" in output.summary


def test_an_unparseable_zarr_json_is_judged_once(run_cli, store_dir):
    """A broken zarr.json could be a v3 document or a v3-draft entry point: it is reported once,
    as v3, not as 'mixed formats'."""
    output = run_cli(store_dir({"zarr.json": b'{"zarr_format": 3,'}))
    assert output.code == 1
    assert "format v3;" in output.summary
    assert not output.has("WARNING", None, "mixed-formats")
    assert [f[1] for f in output.findings] == ["V3-ARR-013"]
