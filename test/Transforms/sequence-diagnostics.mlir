// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers --mplan-sequence="mode=best work-limit=9223372036854775807" | FileCheck %s --check-prefix=BUDGET

// The remark that says why sequencing keeps program order is one located
// line, without the function printed after it.
// REMARK: remark: mplan-sequence kept program order: {{.*}}more than one block
// REMARK-NOT: see current operation
func.func @cfg() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<256xf32>
  %f1 = arith.constant 1.0 : f32
  linalg.fill ins(%f1 : f32) outs(%a : memref<256xf32>)
  cf.br ^bb1
^bb1:
  %x = memref.load %a[%c0] : memref<256xf32>
  vector.print %x : f32
  memref.dealloc %a : memref<256xf32>
  return
}

// -----

// The largest work limit is no limit: the search still runs and proves the
// order it finds optimal (a budget split from a remaining budget near 2^63
// once rounded past int64_t and became 0).
// BUDGET-LABEL: func.func @chains
// BUDGET-SAME: mplan.sequence_optimal
func.func @chains() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  %s = memref.alloc() : memref<2xf32>
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  linalg.fill ins(%f1 : f32) outs(%a : memref<256xf32>)
  linalg.fill ins(%f2 : f32) outs(%b : memref<256xf32>)
  %x = memref.load %a[%c5] : memref<256xf32>
  memref.store %x, %s[%c0] : memref<2xf32>
  %y = memref.load %b[%c5] : memref<256xf32>
  %z = memref.load %s[%c0] : memref<2xf32>
  %w = arith.addf %y, %z : f32
  memref.store %w, %s[%c0] : memref<2xf32>
  %v = memref.load %s[%c0] : memref<2xf32>
  vector.print %v : f32
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %s : memref<2xf32>
  return
}

// -----

// Sequencing lowers the default space's bound; a function whose static
// buffers are all in another space keeps program order, and says why.
// REMARK: remark: mplan-sequence kept program order: the function has no static buffers in the default memory space
// REMARK-NOT: see current operation
func.func @space1(%out: memref<64xf32>) {
  %f1 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32, 1>
  %b = memref.alloc() : memref<64xf32, 1>
  linalg.fill ins(%f1 : f32) outs(%a : memref<64xf32, 1>)
  linalg.fill ins(%f1 : f32) outs(%b : memref<64xf32, 1>)
  linalg.map { arith.addf } ins(%a, %b : memref<64xf32, 1>, memref<64xf32, 1>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<64xf32, 1>
  memref.dealloc %b : memref<64xf32, 1>
  return
}
