//===- FuseDialect.td - The fuse dialect -------------------*- tablegen -*-===//
//
// The `fuse` dialect: mapping-type attributes that classify how an op's input
// elements map to its output elements, and the `fuse.group` region op that
// holds the ops the fusion planner decided to emit as one kernel.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_IR_FUSEDIALECT_TD
#define FUSEDIALECT_IR_FUSEDIALECT_TD

include "mlir/IR/OpBase.td"

def Fuse_Dialect : Dialect {
  let name = "fuse";
  let cppNamespace = "::mlir::fuse";
  let summary = "Operator fusion by mapping type (DNNFusion-style).";
  let description = [{
    The `fuse` dialect carries the state of the FuseDialect fusion pipeline:

    * `#fuse.mapping<...>` classifies an operation by how its input elements
      map to its output elements (one-to-one, one-to-many, many-to-many,
      reorganize, shuffle). The classification is derived from the IR
      (indexing maps, iterator types, traits, shapes) by the mapping-type
      analysis and attached as the discardable attribute `fuse.mapping`.
    * `fuse.group` is an isolated region op whose body becomes exactly one
      kernel after lowering.

    Data flows one way: TOSA or linalg-on-tensors in, annotate mapping types,
    simplify, plan, form `fuse.group`s, fix layouts, lower to CPU loops or
    NVVM kernels.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute that carries an op's mapping type,
    /// attached by `--fuse-annotate-mapping`.
    static constexpr ::llvm::StringLiteral kMappingAttrName = "fuse.mapping";

    /// Name of the discardable integer attribute `--fuse-inline-groups` puts
    /// on each tile loop of a group that lowers to several loop nests (the
    /// group's index); the GPU lowering carries it to the nests' launches
    /// and launches the independent nests of one group as one kernel.
    static constexpr ::llvm::StringLiteral kGroupNestAttrName =
        "fuse.group_nest";

  private:
    void registerAttributes();
    void registerOps();
  public:
  }];
}

class Fuse_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuse_Dialect, mnemonic, traits>;

#endif // FUSEDIALECT_IR_FUSEDIALECT_TD
