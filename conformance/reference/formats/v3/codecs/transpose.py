"""The `transpose` array->array codec: encoding is numpy.transpose(A, order), decoding applies the
inverse permutation (V3-TRANS-001..004)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....errors import MetadataError
from .base import ArrayArrayCodec, ArraySpec
from .config import Config, describe, is_int


class TransposeCodec(ArrayArrayCodec):
    name = "transpose"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        legacy = bool(getattr(context, "legacy", False))
        config = Config(self.name, configuration, "V3-TRANS-001")
        order = config.raw("order", True)
        config.finish()
        rank = len(spec.shape)
        if legacy and order in ("C", "F"):  # V3HIST-002: the pre-Oct-2023 constants
            order = list(range(rank)) if order == "C" else list(range(rank))[::-1]
        if not isinstance(order, list) or not all(is_int(i) for i in order):
            raise MetadataError(
                "invalid-order",
                f"transpose 'order' must be an array of integers, got {describe(order)}",
                "V3-TRANS-001",
            )
        if len(order) != rank:
            raise MetadataError(
                "invalid-order",
                f"transpose order {order} has {len(order)} entries but its input has rank {rank}",
                "V3-PIPE-004",
            )
        if sorted(order) != list(range(rank)):
            raise MetadataError(
                "invalid-order",
                f"transpose order {order} is not a permutation of 0..{rank - 1}",
                "V3-TRANS-001",
            )
        self.order = tuple(order)
        self.inverse = tuple(int(i) for i in np.argsort(order))
        self._encoded = spec.with_shape(tuple(spec.shape[i] for i in self.order))

    @property
    def encoded_spec(self) -> ArraySpec:
        return self._encoded

    def encode(self, array: np.ndarray) -> np.ndarray:
        return np.transpose(array, self.order)

    def decode(self, array: np.ndarray) -> np.ndarray:
        return np.transpose(array, self.inverse)

    def encoded_selection(self, selection: tuple[slice, ...]) -> tuple[slice, ...]:
        # B_pos[i] = A_pos[order[i]]: encoded axis i ranges over decoded axis order[i].
        return tuple(selection[i] for i in self.order)
