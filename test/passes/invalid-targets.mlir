// Every pass with a target option refuses an unknown target.
// RUN: not fhec-opt --fhe-fuse="target=tpu" %s 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not fhec-opt --fhec-plan-workspace="target=tpu" %s 2>&1 | FileCheck %s --check-prefix=PLAN
// FUSE: error: fhe-fuse: unknown target 'tpu'
// PLAN: error: fhec-plan-workspace: unknown target 'tpu'
module {
}
