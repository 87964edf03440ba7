"""Zarr Object Models (ZEP 6): a hierarchy's structure and metadata as one JSON document.

    from conformance.reference import zom
    model = zom.from_store(store)            # walk a v2 or v3 hierarchy (metadata only)
    zom.to_json(model)                       # deterministic JSON value
    zom.to_store(model, other_store)         # materialise it through the format modules
    zom.check_against(store, model)          # [Finding, ...]: how a store differs from a model
    zom.validate_model_file(store, "m.json") # the same with attribute rules (`validate --model`)
    zom.upgrade_store(v2_store)              # ZEP 1 metadata-only v2 -> v3
    zom.flatten(model)                       # consolidated metadata

See docs/zom.md for the model-file format and the fixes to the ZEP's schemas.
"""

from __future__ import annotations

from .check import Finding, check_against, compare_models, iter_nodes
from .convert import (
    MAX_HIERARCHY_DEPTH,
    Model,
    dumps,
    from_json,
    metadata_of,
    node_from_metadata,
    to_json,
)
from .flatten import flatten, unflatten
from .hierarchy import from_store, to_store
from .modelfile import (
    ModelFile,
    check_model,
    load_model_file,
    parse_model_file,
    validate_model_file,
)
from .models_v2 import ArrayModel as V2ArrayModel
from .models_v2 import GroupModel as V2GroupModel
from .models_v3 import ArrayModel as V3ArrayModel
from .models_v3 import GroupModel as V3GroupModel
from .rules import RULE_SETS, AttributeRule, apply_rules, xarray_rules
from .schema import SCHEMA_NAMES, is_valid, load_schema, schema_errors, schema_name
from .upgrade import upgrade_model, upgrade_store, upgrade_v2_array

__all__ = [
    "MAX_HIERARCHY_DEPTH",
    "RULE_SETS",
    "SCHEMA_NAMES",
    "AttributeRule",
    "Finding",
    "Model",
    "ModelFile",
    "V2ArrayModel",
    "V2GroupModel",
    "V3ArrayModel",
    "V3GroupModel",
    "apply_rules",
    "check_against",
    "check_model",
    "compare_models",
    "dumps",
    "flatten",
    "from_json",
    "from_store",
    "is_valid",
    "iter_nodes",
    "load_model_file",
    "load_schema",
    "metadata_of",
    "node_from_metadata",
    "parse_model_file",
    "schema_errors",
    "schema_name",
    "to_json",
    "to_store",
    "unflatten",
    "upgrade_model",
    "upgrade_store",
    "upgrade_v2_array",
    "validate_model_file",
    "xarray_rules",
]
