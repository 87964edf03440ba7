"""A command adapter that speaks NDJSON for describe and prints garbage for anything else."""

import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "describe":
        reply = {
            "id": request["id"],
            "ok": True,
            "name": "garbage",
            "version": "0",
            "protocol": 1,
            "versions": {},
            "capabilities": [
                "format:v3",
                "op:read",
                "store:directory",
                "dtype:int32",
                "codec:bytes",
            ],
            "elapsed": 0.0,
        }
        print(json.dumps(reply), flush=True)
    elif request["op"] == "shutdown":
        print(json.dumps({"id": request["id"], "ok": True, "elapsed": 0.0}), flush=True)
        break
    else:
        print("Traceback (most recent call last): <this is not JSON>", flush=True)
