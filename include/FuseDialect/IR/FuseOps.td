//===- FuseOps.td - fuse dialect operations ----------------*- tablegen -*-===//

#ifndef FUSEDIALECT_IR_FUSEOPS_TD
#define FUSEDIALECT_IR_FUSEOPS_TD

include "FuseDialect/IR/FuseDialect.td"
include "FuseDialect/IR/FuseAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fuse_GroupOp : Fuse_Op<"group", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A set of ops that becomes exactly one kernel";
  let description = [{
    `fuse.group` holds the operations that the fusion planner decided to emit
    as one kernel. Its contract:

    * **Captures.** The region is isolated from above: every value the body
      reads from outside is an explicit operand (`ins`), bound to the entry
      block argument at the same position. Constants may be cloned into the
      body instead (canonicalization sinks them), so a kernel never reads a
      constant from memory it does not need to.
    * **Yields.** The body ends in `fuse.yield`, whose operands are the
      group's results, one for one and with the same types. A group may have
      several results (multi-output kernels); every result is a value the
      outside needs. Intermediates that are not yielded never reach memory.
    * **No side effects.** Every operation in the body must be free of memory
      effects (tensor semantics: TOSA, linalg on tensors, tensor, arith,
      math). The group's effects and speculatability are those of its body
      (`RecursiveMemoryEffects`, `RecursivelySpeculatable`): unused groups are
      erased, and a group is hoisted out of a guard only if every op in it
      may be speculated.
    * **Flat.** Groups do not nest: one group is one kernel.
    * `mapping`, when present, is the fused mapping type of the body
      according to the DNNFusion lattice (see `#fuse.mapping`).
    * **Index changes.** `input_permutations`, when present, holds one
      `array<i64: ...>` per input (empty for none): the body reads input `i`
      through that permutation, i.e. its block argument is
      `transpose(input_i, perm_i)`. `result_permutations` likewise: result
      `i` is `transpose(yielded_i, perm_i)`. A kernel applies them in its
      load and store indexing, so a transpose at a kernel boundary costs no
      memory traffic (DNNFusion's index change); the CPU lowering
      materializes them as transposes when it dissolves the group.

    Example:

    ```mlir
    %r = fuse.group ins(%x, %b : tensor<4x8xf32>, tensor<1x8xf32>)
           -> (tensor<4x8xf32>) attributes {mapping = #fuse.mapping<one_to_many>} {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<1x8xf32>):
      %0 = tosa.add %a, %c : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
      %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
      fuse.yield %1 : tensor<4x8xf32>
    }
    ```
  }];

  let arguments = (ins Variadic<AnyType>:$inputs,
                       OptionalAttr<Fuse_MappingTypeAttr>:$mapping,
                       OptionalAttr<ArrayAttr>:$input_permutations,
                       OptionalAttr<ArrayAttr>:$result_permutations);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);

  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    `->` custom<GroupResultTypes>(type($results)) attr-dict-with-keyword $body
  }];

  let extraClassDeclaration = [{
    /// The terminator of the body.
    YieldOp getYield();
    /// Creates a group with an entry block whose arguments mirror `inputs`
    /// and no terminator; the caller fills the body and adds the yield.
    static GroupOp createWithEmptyBody(::mlir::OpBuilder &builder,
                                       ::mlir::Location loc,
                                       ::mlir::TypeRange resultTypes,
                                       ::mlir::ValueRange inputs);
    /// The body block.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The permutation input `i` is read through (empty: none).
    ::llvm::ArrayRef<int64_t> getInputPermutation(unsigned i);
    /// The permutation result `i` is written through (empty: none).
    ::llvm::ArrayRef<int64_t> getResultPermutation(unsigned i);
    /// Whether any input or result goes through a permutation.
    bool hasIndexChanges();
  }];

  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
}

def Fuse_YieldOp : Fuse_Op<"yield", [
    Pure, HasParent<"GroupOp">, ReturnLike, Terminator]> {
  let summary = "Terminates a `fuse.group`, naming its results";
  let description = [{
    The operands of `fuse.yield` are the results of the enclosing
    `fuse.group`, in order and with the same types.

    ```mlir
    fuse.yield %0, %1 : tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // FUSEDIALECT_IR_FUSEOPS_TD
