//===- ExternalizeWeights.cpp - Large constants into a weights file -------===//
//
// `--fuse-externalize-weights` (docs in Passes.td). On a lowered module:
//   1. pick the top-level constant `llvm.mlir.global`s initialized by dense
//      elements of whole-byte types, at least `min-bytes` large;
//   2. lay their bytes out at 64-byte aligned offsets and write the file
//      (FuseWeightsHeader, then the data: ModelDescription.h, the one
//      definition of the format, shared with the runtime that reads it);
//   3. make each a writable global initialized to zero (it lands in .bss);
//   4. add `__fuse_weights_header` and the table `__fuse_weights`
//      ({address, offset, bytes} per global) for the runtime;
// or, with `link`, instead of 3-4: make each a declaration and define it in
// the module's assembly, `.incbin` of its bytes in the file (read-only
// data, 64-byte aligned, hidden: the library's own).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Artifact/Passes.h"

#include "FuseDialect-runtime/ModelDescription.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEEXTERNALIZEWEIGHTSPASS
#include "FuseDialect/Codegen/Artifact/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

constexpr StringLiteral kHeader = "__fuse_weights_header";
constexpr StringLiteral kTable = "__fuse_weights";

/// The bytes `global` is initialized with, if it is a constant the pass
/// moves: dense elements of a whole-byte type, laid out as in memory.
std::optional<std::vector<char>> movableBytes(LLVM::GlobalOp global,
                                              int64_t minBytes) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(global.getValueAttr());
  if (!global.getConstant() || !dense)
    return std::nullopt;
  Type element = dense.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  int64_t item = element.getIntOrFloatBitWidth() / 8;
  int64_t bytes = dense.getNumElements() * item;
  if (bytes < minBytes || bytes == 0)
    return std::nullopt;
  ArrayRef<char> raw = dense.getRawData();
  std::vector<char> data;
  data.reserve(bytes);
  if (dense.isSplat()) {
    for (int64_t i = 0; i < dense.getNumElements(); ++i)
      data.insert(data.end(), raw.begin(), raw.begin() + item);
  } else {
    data.assign(raw.begin(), raw.end());
  }
  if (static_cast<int64_t>(data.size()) != bytes)
    return std::nullopt;
  return data;
}

/// A constant global of `type` named `name` at the end of `module`,
/// initialized by what `build` returns.
void addTable(OpBuilder &b, ModuleOp module, StringRef name, Type type,
              function_ref<Value(OpBuilder &, Location)> build) {
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  auto global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                       LLVM::Linkage::External, name,
                                       Attribute(), /*alignment=*/8);
  global.setVisibility_(LLVM::Visibility::Hidden);
  Block *body = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(body);
  LLVM::ReturnOp::create(b, loc, build(b, loc));
}

/// Whether `name` is written as it is in assembly.
bool isPlainSymbol(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
         });
}

/// `text` as the body of a GNU assembler string literal.
std::string asmString(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

struct ExternalizeWeights
    : fuse::impl::FuseExternalizeWeightsPassBase<ExternalizeWeights> {
  using FuseExternalizeWeightsPassBase::FuseExternalizeWeightsPassBase;

  /// `link`: the moved globals become declarations, defined by the
  /// module's assembly as the file's bytes.
  void defineInAssembly(ModuleOp module, ArrayRef<LLVM::GlobalOp> moved,
                        ArrayRef<uint64_t> offsets, ArrayRef<uint64_t> sizes) {
    MLIRContext *ctx = module.getContext();
    SmallVector<Attribute> lines;
    if (auto existing = module->getAttrOfType<ArrayAttr>(
            LLVM::LLVMDialect::getModuleLevelAsmAttrName()))
      llvm::append_range(lines, existing.getValue());
    auto line = [&](const Twine &text) {
      lines.push_back(StringAttr::get(ctx, text));
    };
    std::string path = asmString(file);
    for (auto [i, op] : llvm::enumerate(moved)) {
      LLVM::GlobalOp global = op;
      uint64_t offset = offsets[i], bytes = sizes[i];
      StringRef name = global.getSymName();
      // The file's 64-byte alignment, or the global's own if larger (LLVM
      // assumes it of the declaration).
      uint64_t align = std::max<uint64_t>(FUSE_WEIGHTS_ALIGNMENT,
                                          global.getAlignment().value_or(1));
      line(".section .rodata." + name + ",\"a\",@progbits");
      line(".p2align " + Twine(llvm::Log2_64_Ceil(align)));
      line(".globl " + name);
      line(".hidden " + name);
      line(".type " + name + ",@object");
      line(".size " + name + ", " + Twine(bytes));
      line(name + ":");
      line(".incbin \"" + path + "\", " +
           Twine(FUSE_WEIGHTS_DATA_OFFSET + offset) + ", " + Twine(bytes));
      // A declaration: no initializer, defined by the assembly above.
      global.removeValueAttr();
      global.setLinkage(LLVM::Linkage::External);
      global.setVisibility_(LLVM::Visibility::Hidden);
    }
    line(".text");
    module->setAttr(LLVM::LLVMDialect::getModuleLevelAsmAttrName(),
                    ArrayAttr::get(ctx, lines));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (file.empty()) {
      emitError(module.getLoc(), "--fuse-externalize-weights needs file=PATH");
      return signalPassFailure();
    }
    if (minBytes < 0) {
      emitError(module.getLoc(), "--fuse-externalize-weights: min-bytes ")
          << minBytes.getValue() << " is negative";
      return signalPassFailure();
    }
    if (auto assembly = module->getAttrOfType<ArrayAttr>(
            LLVM::LLVMDialect::getModuleLevelAsmAttrName()))
      for (Attribute line : assembly)
        if (auto text = dyn_cast<StringAttr>(line);
            text && text.getValue().starts_with(".incbin")) {
          emitError(module.getLoc(), "the module's assembly already includes "
                                     "a weights file (externalized twice?)");
          return signalPassFailure();
        }
    for (StringRef name : {kHeader, kTable})
      if (Operation *existing = module.lookupSymbol(name)) {
        emitError(existing->getLoc(), "the module already has @")
            << name << " (externalized twice?)";
        return signalPassFailure();
      }

    // 1-2. The globals to move and their place in the file.
    SmallVector<LLVM::GlobalOp> moved;
    SmallVector<uint64_t> offsets, sizes;
    std::vector<unsigned char> data;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      std::optional<std::vector<char>> bytes = movableBytes(global, minBytes);
      // The assembly names the symbol: keep names it could misread.
      if (!bytes || (link && !isPlainSymbol(global.getSymName())))
        continue;
      data.resize(llvm::alignTo(data.size(), FUSE_WEIGHTS_ALIGNMENT), 0);
      moved.push_back(global);
      offsets.push_back(data.size());
      sizes.push_back(bytes->size());
      data.insert(data.end(), bytes->begin(), bytes->end());
    }
    data.resize(llvm::alignTo(data.size(), 8), 0);
    FuseWeightsHeader header{FUSE_WEIGHTS_MAGIC, moved.size(), data.size(),
                             fuseDigest(data.data(), data.size())};

    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(file, &message);
    if (!out) {
      emitError(module.getLoc(), "cannot write the weights file: ") << message;
      return signalPassFailure();
    }
    std::vector<char> head(FUSE_WEIGHTS_DATA_OFFSET, 0);
    std::memcpy(head.data(), &header, sizeof header);
    out->os().write(head.data(), head.size());
    out->os().write(reinterpret_cast<const char *>(data.data()), data.size());
    out->os().flush();
    if (out->os().has_error()) {
      emitError(module.getLoc(), "cannot write the weights file '")
          << file << "'";
      out->os().clear_error();
      return signalPassFailure();
    }
    out->keep();

    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    if (link)
      return defineInAssembly(module, moved, offsets, sizes);

    // 3. Writable and zero: the runtime fills them from the file.
    for (LLVM::GlobalOp global : moved) {
      auto dense = cast<DenseElementsAttr>(global.getValueAttr());
      global.setConstant(false);
      global.setValueAttr(DenseElementsAttr::get(
          dense.getType(), b.getZeroAttr(dense.getElementType())));
    }

    // 4. The header and the table.
    Type i64 = IntegerType::get(ctx, 64);
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    auto headerType =
        LLVM::LLVMStructType::getLiteral(ctx, {i64, i64, i64, i64});
    addTable(b, module, kHeader, headerType, [&](OpBuilder &b, Location loc) {
      Value v = LLVM::UndefOp::create(b, loc, headerType);
      uint64_t fields[] = {header.magic, header.count, header.data_bytes,
                           header.digest};
      for (auto [i, field] : llvm::enumerate(fields))
        v = LLVM::InsertValueOp::create(
            b, loc, v,
            LLVM::ConstantOp::create(b, loc, i64,
                                     b.getI64IntegerAttr(int64_t(field))),
            ArrayRef<int64_t>{int64_t(i)});
      return v;
    });
    auto entryType = LLVM::LLVMStructType::getLiteral(ctx, {ptr, i64, i64});
    auto tableType = LLVM::LLVMArrayType::get(entryType, moved.size());
    addTable(b, module, kTable, tableType, [&](OpBuilder &b, Location loc) {
      Value v = LLVM::UndefOp::create(b, loc, tableType);
      for (auto [i, global] : llvm::enumerate(moved)) {
        Value fields[] = {LLVM::AddressOfOp::create(b, loc, global),
                          LLVM::ConstantOp::create(
                              b, loc, i64, b.getI64IntegerAttr(offsets[i])),
                          LLVM::ConstantOp::create(
                              b, loc, i64, b.getI64IntegerAttr(sizes[i]))};
        for (auto [k, field] : llvm::enumerate(fields))
          v = LLVM::InsertValueOp::create(
              b, loc, v, field, ArrayRef<int64_t>{int64_t(i), int64_t(k)});
      }
      return v;
    });
  }
};

} // namespace
