// RUN: not fhec %s --target=tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not fhec %s --emit=exe 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not fhec %s --emit=so 2>&1 | FileCheck %s --check-prefix=SO
// RUN: not fhec %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fhec %S/Inputs/ill-typed.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not fhec run %S/Inputs/ill-typed.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not fhec %S/Inputs/malformed.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX

module attributes {ckks.params = #ckks.params<logN = 6, logQ = 80, logp = 20>} {
}
// TARGET: fhec: error: unknown target 'tpu' (available: cpu, auto)
// EMIT: fhec: error: unknown --emit=exe
// SO: fhec: error: --emit=so needs an output file
// MISSING: fhec: error: {{.*}}missing
// TYPE: ill-typed.mlir:6:10: error: 'ckks.mul' op result logp must be 40 (sum of the operands' logp), got 20
// SYNTAX: malformed.mlir:3:{{[0-9]+}}: error:
