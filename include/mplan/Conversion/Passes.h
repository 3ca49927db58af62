//===- Passes.h - mplan conversion passes -----------------------*- C++ -*-===//

#ifndef MPLAN_CONVERSION_PASSES_H
#define MPLAN_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace mplan {

#define GEN_PASS_DECL
#include "mplan/Conversion/Passes.h.inc"

/// Options of `mplan-to-llvm`.
struct MPlanToLLVMOptions : public PassPipelineOptions<MPlanToLLVMOptions> {
  PassOptions::Option<bool> useAlignedAlloc{
      *this, "use-aligned-alloc",
      llvm::cl::desc(
          "Lower every aligned memref.alloc to aligned_alloc instead of an "
          "over-allocating malloc whose pointer is aligned through integers "
          "(finalize-memref-to-llvm's option)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> alignedArenas{
      *this, "aligned-arenas",
      llvm::cl::desc("Allocate heap arenas with aligned_alloc "
                     "(convert-mplan-arenas-to-llvm) and every other "
                     "allocation as finalize-memref-to-llvm does"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> aliasScopes{
      *this, "alias-scopes",
      llvm::cl::desc("Give the accesses to arena buffers alias scopes and "
                     "noalias sets (mplan-tag-buffer-accesses and "
                     "mplan-buffer-alias-scopes)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> scopeFloatAccumulators{
      *this, "scope-float-accumulators",
      llvm::cl::desc("With alias-scopes: also give the loads and stores of "
                     "scalar floating-point accumulators of loops scopes "
                     "(mplan-tag-buffer-accesses' option)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> unrollOuterLoops{
      *this, "unroll-outer-loops",
      llvm::cl::desc("Let LLVM unroll the loops that contain loops in "
                     "functions with an arena (by default "
                     "mplan-keep-outer-loops marks them "
                     "llvm.loop.unroll.disable)"),
      llvm::cl::init(false)};
};

/// Adds the upstream passes that lower linalg, scf, memref, arith, math, cf
/// and func to the LLVM dialect, ready for `mlir-runner` (with
/// `alignedArenas`, convert-mplan-arenas-to-llvm before
/// finalize-memref-to-llvm).
void buildMPlanToLLVMPipeline(OpPassManager &pm,
                              const MPlanToLLVMOptions &options = {});

/// Registers `mplan-to-llvm`.
void registerMPlanToLLVMPipeline();

#define GEN_PASS_REGISTRATION
#include "mplan/Conversion/Passes.h.inc"

} // namespace mplan
} // namespace mlir

#endif // MPLAN_CONVERSION_PASSES_H
