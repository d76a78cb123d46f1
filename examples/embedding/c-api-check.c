/* The C API from C: load the fuse dialect through its handle, build and
 * inspect #fuse.mapping attributes, run --fuse-ops on module text. */
#include "FuseDialect-c/FuseDialect.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectHandle fuse = mlirGetDialectHandle__fuse__();
  mlirDialectHandleLoadDialect(fuse, ctx);
  MlirStringRef ns = mlirDialectHandleGetNamespace(fuse);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirAttribute attr = fuseMappingAttrGet(ctx, FuseMappingOneToMany);
  printf("isa mapping: %d, value: %d\n", fuseAttributeIsAMapping(attr),
         (int)fuseMappingAttrGetValue(attr));
  MlirAttribute parsed = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#fuse.mapping<shuffle>"));
  printf("parsed: %d %d\n", fuseAttributeIsAMapping(parsed),
         (int)fuseMappingAttrGetValue(parsed));
  MlirAttribute other = mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("1 : i32"));
  printf("integer is mapping: %d\n", fuseAttributeIsAMapping(other));
  mlirContextDestroy(ctx);

  if (argc > 1) {
    FILE *f = fopen(argv[1], "rb");
    static char text[1 << 20];
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f)
      fclose(f);
    text[n] = 0;
    char *diagnostics = NULL;
    char *out = fuseRunPipeline(text, "builtin.module(fuse-ops)", &diagnostics);
    int groups = 0;
    for (const char *p = out; p && (p = strstr(p, "fuse.group ins")); ++p)
      ++groups;
    printf("fuse-ops: %s, %d groups\n", out ? "ok" : "failed", groups);
    fuseFreeString(out);
    fuseFreeString(diagnostics);
  }
  return 0;
}
