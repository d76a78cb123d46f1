"""Checks that fuse_dialect.api takes options as values: each is checked by
name and type before anything runs, and written quoted, so that no option
can add a pass to the pipeline."""
import os
import sys
import tempfile

from fuse_dialect import api  # python/ on PYTHONPATH (test/lit.cfg.py)

ROOT = sys.argv[1]

text = open(os.path.join(ROOT, "examples", "inception_block.mlir")).read()


def refused(call):
    try:
        call()
    except (TypeError, ValueError) as e:
        return "%s: %s" % (type(e).__name__, e)
    return "ACCEPTED"


# Injection attempts and wrong types: refused before the library is even
# loaded (nothing ran).
print("inject:", refused(lambda: api.fuse(text, max_group_size="1} ,canonicalize{")))
print("inject str:", refused(lambda: api.fuse(text, report="r.json} ,canonicalize{")))
print("unknown:", refused(lambda: api.fuse(text, canonicalize=True)))
print("bool as str:", refused(lambda: api.fuse(text, layout="false")))
print("int as bool:", refused(lambda: api.fuse(text, max_group_size=True)))
print("zero:", refused(lambda: api.fuse(text, max_group_size=0)))
print("too big:", refused(lambda: api.fuse(text, max_group_size=2 ** 32)))
print("quotes:", refused(lambda: api.fuse(text, dot="a\"b'c")))
print("newline:", refused(lambda: api.fuse(text, profile="a\nb")))
print("report twice:", refused(lambda: api.report(text, report="x.json")))
print("report option:", refused(lambda: api.report(text, strict="yes")))
print("run_pipeline int:", refused(lambda: api.run_pipeline(42, "builtin.module()")))
print("run_pipeline None:", refused(lambda: api.run_pipeline(text, None)))
print("run_pipeline NUL:", refused(lambda: api.run_pipeline(text, "builtin.module()\0x")))
print("import_onnx:", refused(lambda: api.import_onnx(3)))
print("import_onnx elide:", refused(lambda: api.import_onnx("m.onnx", elide_weights="no")))
print("nothing ran:", api._lib is None)

# Valid options run: a report path with a space and a comma is quoted.
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "a b,c", "it's.json")
    os.makedirs(os.path.dirname(path))
    fused = api.fuse(text, report=path, max_group_size=2, strict=True)
    print("report written:", os.path.exists(path), "groups:", fused.count("fuse.group ins"))
    # With the injected text the pipeline would have run canonicalize after
    # fuse-ops; the same options as values give the same IR as fuse-opt.
    print("same as default:", api.fuse(text) == api.fuse(text, max_group_size=64))
