//===- FuseAttrs.td - fuse dialect attributes --------------*- tablegen -*-===//

#ifndef FUSEDIALECT_IR_FUSEATTRS_TD
#define FUSEDIALECT_IR_FUSEATTRS_TD

include "FuseDialect/IR/FuseDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// The cases are ordered by complexity; the lattice helpers in
// FuseDialect/IR/MappingType.h rely on this order (one_to_one is the bottom,
// many_to_many the top).
def Fuse_MappingType : I32EnumAttr<"MappingType",
    "how the input elements of an operation map to its output elements", [
      I32EnumAttrCase<"OneToOne", 0, "one_to_one">,
      I32EnumAttrCase<"Shuffle", 1, "shuffle">,
      I32EnumAttrCase<"Reorganize", 2, "reorganize">,
      I32EnumAttrCase<"OneToMany", 3, "one_to_many">,
      I32EnumAttrCase<"ManyToMany", 4, "many_to_many">
    ]> {
  let cppNamespace = "::mlir::fuse";
  let genSpecializedAttr = 0;
}

def Fuse_MappingTypeAttr : EnumAttr<Fuse_Dialect, Fuse_MappingType, "mapping"> {
  let summary = "DNNFusion mapping type of an operation";
  let description = [{
    Classifies an operation by the relation between its input and output
    elements (DNNFusion, PLDI 2021, Table 2):

    | case           | meaning                                              | examples |
    |----------------|------------------------------------------------------|----------|
    | `one_to_one`   | each output element reads one input element at the same index | add, relu, cast |
    | `shuffle`      | a permutation of the elements                        | transpose, reverse |
    | `reorganize`   | each output reads one input element at a remapped index; no arithmetic | reshape, slice, concat, pad |
    | `one_to_many`  | an input element feeds several output elements       | broadcast, tile, gather, nearest resize |
    | `many_to_many` | an output element reads several input elements       | conv, matmul, pooling, reductions |

    ```mlir
    %0 = tosa.add %a, %b {fuse.mapping = #fuse.mapping<one_to_one>}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // FUSEDIALECT_IR_FUSEATTRS_TD
