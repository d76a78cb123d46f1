//===- TestLattice.cpp - Print the mapping-type lattice -------------------===//
//
// `--fuse-test-print-lattice` prints, for every (producer, consumer) pair of
// mapping types, the profitability class and the fused type, so that lit can
// check all 25 cells of DNNFusion's Table 3.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/MappingType.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct TestPrintLatticePass
    : PassWrapper<TestPrintLatticePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintLatticePass)

  StringRef getArgument() const final { return "fuse-test-print-lattice"; }
  StringRef getDescription() const final {
    return "Print the fusion lattice (profitability and fused type per pair)";
  }

  void runOnOperation() override {
    static const MappingType kAll[] = {
        MappingType::OneToOne, MappingType::Shuffle, MappingType::Reorganize,
        MappingType::OneToMany, MappingType::ManyToMany};
    llvm::raw_ostream &os = llvm::outs();
    for (MappingType producer : kAll) {
      for (MappingType consumer : kAll) {
        os << stringifyMappingType(producer) << " -> "
           << stringifyMappingType(consumer) << ": ";
        switch (classifyFusion(producer, consumer)) {
        case FusionProfitability::Always:
          os << "always";
          break;
        case FusionProfitability::Maybe:
          os << "maybe";
          break;
        case FusionProfitability::Never:
          os << "never";
          break;
        }
        if (std::optional<MappingType> fused =
                getFusedMappingType(producer, consumer))
          os << " " << stringifyMappingType(*fused);
        os << "\n";
      }
    }
  }
};

} // namespace

namespace mlir::fuse::test {
void registerTestAlgebraicRulesPasses();
void registerTestFusionCostPass();
void registerTestSerializeLaunchesPasses();
void registerTestPasses() {
  PassRegistration<TestPrintLatticePass>();
  registerTestAlgebraicRulesPasses();
  registerTestFusionCostPass();
  registerTestSerializeLaunchesPasses();
}
} // namespace mlir::fuse::test
