/* Every entry point of the C API (include/FuseDialect-c/FuseDialect.h)
 * called with the arguments an embedder gets wrong: NULL strings, null
 * contexts and attributes, enum values out of range, pipelines anchored
 * elsewhere, bad options, input IR naming an output file. Each prints what
 * it got; the process must survive all of them (test/Hostile/capi.mlir).
 * Argument: a path the hostile module names as its report file. */
#include "FuseDialect-c/FuseDialect.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static const char *kModule =
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";

/* Runs `pipeline` on `text`; prints ok or the first diagnostic line. */
static void run(const char *what, const char *text, const char *pipeline) {
  char *diagnostics = NULL;
  char *out = fuseRunPipeline(text, pipeline, &diagnostics);
  const char *message = diagnostics ? diagnostics : "";
  const char *end = strchr(message, '\n');
  printf("%s: %s: %.*s\n", what, out ? "ok" : "refused",
         (int)(end ? end - message : (long)strlen(message)), message);
  fuseFreeString(out);
  fuseFreeString(diagnostics);
}

int main(int argc, char **argv) {
  MlirAttribute null = {NULL};
  MlirContext noContext = {NULL};
  printf("null attr is mapping: %d\n", fuseAttributeIsAMapping(null));
  printf("null attr value: %d\n", (int)fuseMappingAttrGetValue(null));
  printf("get in null context is null: %d\n",
         mlirAttributeIsNull(fuseMappingAttrGet(noContext, FuseMappingShuffle)));
  MlirContext ctx = mlirContextCreate();
  printf("get 99 is null: %d\n",
         mlirAttributeIsNull(fuseMappingAttrGet(ctx, (FuseMappingType)99)));
  printf("get -1 is null: %d\n",
         mlirAttributeIsNull(fuseMappingAttrGet(ctx, (FuseMappingType)-1)));
  MlirAttribute other =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("1 : i32"));
  printf("integer value: %d\n", (int)fuseMappingAttrGetValue(other));
  mlirContextDestroy(ctx);

  run("null module", NULL, "builtin.module(fuse-ops)");
  run("null pipeline", kModule, NULL);
  fuseFreeString(fuseRunPipeline(NULL, NULL, NULL));
  printf("no diagnostics pointer: survived\n");
  run("func anchor", kModule, "builtin.module(func.func(fuse-ops))");
  run("cpu in func", kModule, "builtin.module(func.func(fuse-lower-to-cpu))");
  run("bad option", kModule, "builtin.module(fuse-lower-to-nvvm{block-size=0})");
  run("unknown option", kModule, "builtin.module(fuse-ops{bogus=1})");
  run("garbage pipeline", kModule, "builtin.module(fuse-ops{");
  run("garbage module", "func.func @f(", "builtin.module(fuse-ops)");
  if (argc > 1) {
    char text[1024];
    snprintf(text, sizeof(text),
             "module attributes {fuse.report_pending = \"{}\", "
             "fuse.report_path = \"%s\"} {\n%s}\n",
             argv[1], kModule);
    run("report in the IR", text, "builtin.module(fuse-ops)");
  }
  run("fine", kModule, "builtin.module(fuse-ops)");
  return 0;
}
