// REQUIRES: capi
// fuse_dialect.api's options are values, not pipeline text: an option that
// tries to add a pass (`max_group_size='1} ,canonicalize{'`), an unknown
// name, a wrong type, a value out of range or a path MLIR's option syntax
// cannot hold is refused with TypeError/ValueError before anything runs (the
// C API library is not even loaded); a path with spaces, a comma and a quote
// works. run_pipeline and import_onnx check their argument types.
// RUN: env FUSE_DIALECT_LIB=%fuse_obj/lib/libFuseDialectCAPI.so %python %S/Inputs/test_api_options.py %fuse_src | FileCheck %s --implicit-check-not=ACCEPTED --implicit-check-not=Traceback
// CHECK: inject: TypeError: option max_group_size must be an int, not str
// CHECK: inject str: ValueError: option report: 'r.json} ,canonicalize{' cannot be written in MLIR's pass-option syntax
// CHECK: unknown: TypeError: unknown --fuse-ops option 'canonicalize'
// CHECK: bool as str: TypeError: option layout must be a bool, not str
// CHECK: int as bool: TypeError: option max_group_size must be an int, not bool
// CHECK: zero: ValueError: option max_group_size must be in [1, 1048576], is 0
// CHECK: too big: ValueError: option max_group_size must be in [1, 1048576], is 4294967296
// CHECK: quotes: ValueError: option dot:
// CHECK: newline: ValueError: option profile:
// CHECK: report twice: TypeError: report() writes the report itself
// CHECK: report option: TypeError: option strict must be a bool, not str
// CHECK: run_pipeline int: TypeError: module_text must be a str, not int
// CHECK: run_pipeline None: TypeError: pipeline must be a str, not NoneType
// CHECK: run_pipeline NUL: ValueError: pipeline holds a NUL character
// CHECK: import_onnx: TypeError: path must be a str or os.PathLike, not int
// CHECK: import_onnx elide: TypeError: elide_weights must be a bool, not str
// CHECK: nothing ran: True
// CHECK: report written: True groups: {{[1-9][0-9]*}}
// CHECK: same as default: True
