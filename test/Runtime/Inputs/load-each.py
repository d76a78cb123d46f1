"""fuse_dialect.load on each file named: the error it gives, by name."""
import os
import sys

import fuse_dialect
from fuse_dialect import runtime

for path in sys.argv[1:]:
    try:
        fuse_dialect.load(path)
        print("%s: loaded" % os.path.basename(path))
    except runtime.FuseError as e:
        print("%s: FuseError: %s" % (os.path.basename(path), e))
