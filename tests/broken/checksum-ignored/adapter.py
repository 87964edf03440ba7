"""Bug: never verifies the crc32c checksum, so corrupt chunks read as data (V3-CRC-003)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from brokenlib import Reference

from conformance.reference.formats.v3.codecs import crc32c_codec


def decode_without_checking(self, data):
    return data[:-4]


class Adapter(Reference):
    def __init__(self):
        crc32c_codec.Crc32cCodec.decode = decode_without_checking  # this process only
