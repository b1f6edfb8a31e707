// RUN: fhec-opt %s --split-input-file --fhec-gpu-to-emu --fhec-gpu-emu-trace --verify-diagnostics | FileCheck %s
// fhec-gpu-emu-trace: each access reports (site, byte address, bytes, kind =
// 2 * space + store) with space 0 global (a kernel argument), 1 shared (a view
// of the block's shared memory), 2 local (an alloca); the block reports its
// issue weight before the trace code was added; the kernel names itself.

// CHECK-LABEL: func.func private @__fhec_kernel_k(
// CHECK-SAME:    %[[IN:.*]]: memref<4x8xi64>, %[[OUT:.*]]: memref<8xi32, strided<[2], offset: 1>>)
// CHECK:         %[[NAME:.*]] = llvm.mlir.addressof @__fhec_trace_name_k
// CHECK:         call @fhec_rt_gpu_trace_kernel(%[[NAME]])
// CHECK:         %[[VIEW:.*]] = memref.view
// CHECK:         %[[TID:.*]] = call @fhec_rt_gpu_thread_id
// CHECK:         %[[SCRATCH:.*]] = memref.alloca() : memref<2xi64>
// Global load of in[0, tid]: aligned pointer + (offset + 0 * stride0 + tid * stride1) * 8.
// CHECK:         %[[P0:.*]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK:         %{{.*}}, %[[OFF0:.*]], %{{.*}}:2, %[[STR0:.*]]:2 = memref.extract_strided_metadata %[[IN]]
// CHECK:         %[[T1:.*]] = arith.muli %[[TID]], %[[STR0]]#1
// CHECK:         %[[L0:.*]] = arith.addi %{{.*}}, %[[T1]]
// CHECK:         %[[B0:.*]] = arith.muli %[[L0]], %c8
// CHECK:         %[[A0:.*]] = arith.addi %[[P0]], %[[B0]]
// CHECK:         call @fhec_rt_gpu_trace_access(%c0_i32{{.*}}, %[[A0]], %c8_i32, %c0_i32{{.*}})
// CHECK-NEXT:    memref.load %[[IN]]
// Local store: kind 5.
// CHECK:         memref.extract_aligned_pointer_as_index %[[SCRATCH]]
// CHECK:         %[[K1:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_access(%{{.*}}, %{{.*}}, %{{.*}}, %[[K1]])
// CHECK-NEXT:    memref.store %{{.*}}, %[[SCRATCH]]
// Shared store (kind 3) and load (kind 2) of 4-byte words.
// CHECK:         memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK:         %[[K2:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_access(%{{.*}}, %{{.*}}, %c4_i32, %[[K2]])
// CHECK-NEXT:    memref.store %{{.*}}, %[[VIEW]]
// CHECK:         call @fhec_rt_gpu_barrier
// CHECK:         %[[K3:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_access(%{{.*}}, %{{.*}}, %{{.*}}, %[[K3]])
// CHECK-NEXT:    memref.load %[[VIEW]]
// Global store through a strided argument: the offset and stride come from the metadata.
// CHECK:         memref.extract_strided_metadata %[[OUT]]
// CHECK:         %[[K4:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_access(%{{.*}}, %{{.*}}, %{{.*}}, %[[K4]])
// CHECK-NEXT:    memref.store %{{.*}}, %[[OUT]]
// Weight: 2 calls (thread id, barrier; the shared-memory view is the
// emulation's), 5 accesses, a 64-bit multiply (3) and the return; the
// truncation to 32 bits is the pair's low register (no slot).
// CHECK:         %[[W:.*]] = arith.constant 11 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_ops(%[[W]])
// CHECK-NEXT:    return
// CHECK:       llvm.mlir.global internal constant @__fhec_trace_name_k("k\00")
module attributes {gpu.container_module} {
  gpu.module @fhec_kernels {
    gpu.func @k(%in: memref<4x8xi64>, %out: memref<8xi32, strided<[2], offset: 1>>)
        workgroup(%tile: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %scratch = memref.alloca() : memref<2xi64>
      %v = memref.load %in[%c0, %t] : memref<4x8xi64>
      %w = arith.muli %v, %v : i64
      memref.store %w, %scratch[%c0] : memref<2xi64>
      %x = arith.trunci %w : i64 to i32
      memref.store %x, %tile[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %tile[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%t] : memref<8xi32, strided<[2], offset: 1>>
      gpu.return
    }
  }
}

// -----

// Weights per basic block; a 64-bit product of two zero-extended 32-bit words
// is one mul.wide.u32, and a 64-bit add of it its addend (one IMAD.WIDE.U32);
// zero extension from 32 bits, the low-half mask and a shift by 32 pick or
// pair registers (no slot); a 64-bit add of the shifted sum: 2; a 64-bit
// division by 5 (a multiply-high and shifts): 10; the branch: 1. The high
// half of a 64x64 product about eight slots; a 64-bit add with its carry out
// 4 (an add and a 64-bit compare), the carry as a word 1 (a select).
// CHECK-LABEL: func.func private @__fhec_kernel_w(
// CHECK:         %[[W1:.*]] = arith.constant 14 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_ops(%[[W1]])
// CHECK-NEXT:    cf.br ^bb1
// CHECK:       ^bb1:
// CHECK:         %[[W2:.*]] = arith.constant 14 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_ops(%[[W2]])
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  gpu.module @fhec_kernels {
    gpu.func @w(%a: i32, %b: i32, %c: i64) kernel {
      %x = arith.extui %a : i32 to i64
      %y = arith.extui %b : i32 to i64
      %p = arith.muli %x, %y : i64
      %q = arith.addi %p, %c : i64
      %mask = arith.constant 4294967295 : i64
      %c32 = arith.constant 32 : i64
      %l32 = arith.andi %q, %mask : i64
      %h32 = arith.shrui %q, %c32 : i64
      %s = arith.addi %l32, %h32 : i64
      %c5 = arith.constant 5 : i64
      %d = arith.divui %s, %c5 : i64
      cf.br ^bb1
    ^bb1:
      %lo, %hi = arith.mului_extended %c, %c : i64
      %sum, %carry = arith.addui_extended %c, %c : i64, i1
      %cw = arith.extui %carry : i1 to i32
      gpu.return
    }
  }
}

// -----

// A vector load (the NTT's 2^d consecutive twiddles on GPUs) is one access of
// all its lanes' bytes and one slot; its lanes are registers (no slot). A
// select among kernel arguments (a batched kernel's buffers) is global.
// Weight: the select, the load, a 64-bit add (2), the return.
// CHECK-LABEL: func.func private @__fhec_kernel_v(
// CHECK:         call @fhec_rt_gpu_trace_access(%{{.*}}, %{{.*}}, %c32_i32, %{{.*}})
// CHECK-NEXT:    vector.load
// CHECK:         %[[WV:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    call @fhec_rt_gpu_trace_ops(%[[WV]])
module attributes {gpu.container_module} {
  gpu.module @fhec_kernels {
    gpu.func @v(%a: memref<2x8xi64>, %b: memref<2x8xi64>, %which: i1) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %m = arith.select %which, %a, %b : memref<2x8xi64>
      %v = vector.load %m[%c0, %c4] : memref<2x8xi64>, vector<4xi64>
      %e0 = vector.extract %v[0] : i64 from vector<4xi64>
      %e3 = vector.extract %v[3] : i64 from vector<4xi64>
      %s = arith.addi %e0, %e3 : i64
      gpu.return
    }
  }
}

// -----

// A memref of unknown origin (a block argument other than the kernel's).
module attributes {gpu.container_module} {
  gpu.module @fhec_kernels {
    gpu.func @bad(%in: memref<8xi64>) kernel {
      %c0 = arith.constant 0 : index
      cf.br ^bb1(%in : memref<8xi64>)
    ^bb1(%m: memref<8xi64>):
      // expected-error @+1 {{fhec-gpu-emu-trace: cannot tell the memory space}}
      %v = memref.load %m[%c0] : memref<8xi64>
      gpu.return
    }
  }
}
