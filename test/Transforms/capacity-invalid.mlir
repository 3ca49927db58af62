// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=shared:1024" -verify-diagnostics -o /dev/null
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=default:0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=default:99999999999999999999" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=1:64,1:128" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=1024" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSPACE

// ZERO: option 'capacity': entry 'default:0': BYTES must be a positive 64-bit integer
// BIG: option 'capacity': entry 'default:99999999999999999999': BYTES must be a positive 64-bit integer
// TWICE: option 'capacity': entry '1:128': memory space '1' has a capacity already
// NOSPACE: option 'capacity': entry '1024': expected SPACE:BYTES

module {
  // expected-error @below {{--mplan-plan-pipeline option 'capacity': entry 'shared:1024': expected SPACE:BYTES with SPACE 'default', an integer memory space, or one of global, workgroup, private}}
  func.func @f(%out: memref<16xf32>) {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %a, %out : memref<16xf32> to memref<16xf32>
    return
  }
}
