"""fuse-import MODEL.onnx -o MODEL.mlir [--elide-weights] [--func NAME]
                   [--dim NAME=SIZE[,NAME=SIZE...]]...

Imports an ONNX model as a TOSA `func.func @model` (see
python/fuse_dialect/onnx_import.py). An unsupported op or attribute, or a
model that is not valid, is one error line naming the node and op; no output
file is written then (exit 1). `--dim batch=8` imports a model whose inputs
have symbolic dimensions (ONNX dim_params) at those sizes. An importer bug is one line "internal error"
(exit 2); never a traceback."""

import argparse
import sys
import warnings


def one_line(text):
    return str(text).replace("\r", "\\r").replace("\n", "\\n")


def main():
    ap = argparse.ArgumentParser(prog="fuse-import", description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--elide-weights", action="store_true",
                    help="weights as elided resources: structure only")
    ap.add_argument("--func", default="model")
    ap.add_argument("--dim", action="append", default=[],
                    help="NAME=SIZE: the size of a symbolic input dimension")
    args = ap.parse_args()

    def error(msg):
        sys.stderr.write("fuse-import: %s: error: %s\n" % (one_line(args.model), one_line(msg)))

    try:
        from .. import onnx_import
    except Exception as e:  # onnx or numpy missing
        error(e)
        return 1
    try:
        onnx_import.check_func_name(args.func)
    except ValueError as e:
        error("--func: %s" % e)
        return 1
    try:
        from ..aot import CompileError, parse_dims
        dims = onnx_import.check_dims(parse_dims(args.dim))
    except (CompileError, ValueError) as e:
        error(e)
        return 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = onnx_import.import_model(args.model, args.elide_weights, args.func,
                                            dims=dims)
    except onnx_import.ImportError as e:
        error(e)
        return 1
    except MemoryError:
        error("out of memory")
        return 1
    except RecursionError:
        error("the model is nested too deeply")
        return 1
    except onnx_import.InternalError as e:
        error("internal error: %s" % e)
        return 2
    except Exception as e:  # an importer bug outside a node
        error("internal error: %s: %s" % (type(e).__name__, e))
        return 2
    try:
        if args.output == "-":
            sys.stdout.write(text)
        else:
            with open(args.output, "w") as f:
                f.write(text)
    except OSError as e:
        error("cannot write %s: %s" % (args.output, e.strerror))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
