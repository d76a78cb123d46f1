//===- TestFusionCost.cpp - Print the fusion cost model's verdicts --------===//
//
// `--fuse-test-fusion-cost` prices every producer -> consumer edge between
// classified ops of each function, as if the producer's group held the
// producer and the classified ops it is computed from, and prints one line
// per edge:
//   <producer> -> <consumer>: <lattice> fuse|keep benefit=B penalty=P (<reason>)
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Analysis/MappingAnalysis.h"
#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct TestFusionCostPass
    : PassWrapper<TestFusionCostPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestFusionCostPass)

  StringRef getArgument() const final { return "fuse-test-fusion-cost"; }
  StringRef getDescription() const final {
    return "Print the fusion cost model's verdict for every edge";
  }

  void runOnOperation() override {
    FusionCostModel model;
    llvm::raw_ostream &os = llvm::outs();
    os << "@" << getOperation().getSymName() << "\n";
    getOperation().walk([&](Operation *consumer) {
      std::optional<MappingType> consumerType = classifyMappingType(consumer);
      if (!consumerType)
        return;
      for (Value operand : consumer->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        std::optional<MappingType> producerType =
            producer ? classifyMappingType(producer) : std::nullopt;
        if (!producerType)
          continue;
        FusionEdge edge;
        edge.producer = producer;
        edge.consumer = consumer;
        edge.value = operand;
        edge.producerType = *producerType;
        edge.consumerType = *consumerType;
        edge.lattice = classifyFusion(*producerType, *consumerType);
        // The producer's group: the producer and what it was computed from.
        SmallVector<Operation *> work{producer};
        for (unsigned i = 0; i < work.size() && i < 16; ++i) {
          Operation *op = work[i];
          if (!edge.groupReduction && getRowReduction(op))
            edge.groupReduction = op;
          if (!edge.groupContraction && isContraction(op))
            edge.groupContraction = op;
          for (Value v : op->getOperands())
            if (Operation *def = v.getDefiningOp();
                def && classifyMappingType(def))
              work.push_back(def);
        }
        FusionVerdict verdict = model.evaluate(edge);
        StringRef lattice = edge.lattice == FusionProfitability::Always ? "always"
                            : edge.lattice == FusionProfitability::Never
                                ? "never"
                                : "maybe";
        os << "  " << producer->getName() << " -> " << consumer->getName()
           << ": " << lattice << " " << (verdict.fuse ? "fuse" : "keep")
           << llvm::formatv(" benefit={0:F0} penalty={1:F0}", verdict.benefit,
                            verdict.penalty)
           << " (" << verdict.reason << ")\n";
      }
    });
  }
};

} // namespace

namespace mlir::fuse::test {
void registerTestFusionCostPass() { PassRegistration<TestFusionCostPass>(); }
} // namespace mlir::fuse::test
