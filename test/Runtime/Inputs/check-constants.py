"""Python's copies of the C headers' facts (fuse_dialect.aot) against the
headers themselves: the ABI version, the exported functions (FuseRuntime.h,
the lookups of FuseLoader.h, the version script's list), the element type
and target codes, and the library trailer's magic and size (Digest.h).
    check-constants.py INCLUDE-DIR
Prints one line per fact; "differs" names what disagrees."""
import os
import re
import sys

from fuse_dialect import aot

root = os.path.join(sys.argv[1], "FuseDialect-runtime")
runtime = open(os.path.join(root, "FuseRuntime.h")).read()
loader = open(os.path.join(root, "FuseLoader.h")).read()
digest = open(os.path.join(root, "Digest.h")).read()


def report(what, ours, theirs):
    print("%s: %s" % (what, "same" if ours == theirs else "differs: %r vs %r" % (ours, theirs)))


report("ABI version", aot.ABI_VERSION,
       int(re.search(r"#define FUSE_RUNTIME_ABI_VERSION (\d+)", runtime).group(1)))
report("thread limit", aot.MAX_THREADS,
       int(re.search(r"#define FUSE_MAX_THREADS (\d+)", runtime).group(1)))
report("dynamic dimension", aot.DYNAMIC_DIM,
       int(re.search(r"#define FUSE_DYNAMIC_DIM \((-?\d+)\)", runtime).group(1)))
declared = set(re.findall(r"^[\w ]+?\**\s*(fuse\w+)\(", runtime, re.M))
report("functions", set(aot.ABI_FUNCTIONS), declared)
report("loader lookups", set(aot.ABI_FUNCTIONS),
       set(re.findall(r"FUSE_LOADER_LOOKUP\((fuse\w+)\)", loader)))
codes = {name: int(v) for name, v in re.findall(r"\bFUSE_(\w+) = (\d+)", runtime)}
names = {"f32": "FLOAT32", "f16": "FLOAT16", "bf16": "BFLOAT16", "f64": "FLOAT64",
         "i8": "INT8", "i16": "INT16", "i32": "INT32", "i64": "INT64", "i1": "BOOL"}
report("element types", {e: code for e, (code, _) in aot.ELEMENT_TYPES.items()},
       {e: codes[n] for e, n in names.items()})
report("targets", aot.TARGETS, {"cpu": codes["TARGET_CPU"], "cuda": codes["TARGET_CUDA"]})
report("trailer magic", aot.LIBRARY_MAGIC,
       int(re.search(r"#define FUSE_LIBRARY_MAGIC (0x[0-9a-fA-F]+)ull", digest).group(1), 16))
fields = re.search(r"typedef struct FuseLibraryTrailer \{\s*uint64_t ([^;]*);", digest).group(1)
report("trailer bytes", aot.TRAILER_BYTES, 8 * len(fields.split(",")))
