// Four rotations of one ciphertext at the paper's parameters (N = 2^16,
// Q = 2^1200, p = 2^30, 2^15 slots), at the top level: the case where the
// key-switching form matters most (docs/design.md, "Key switching").
// Run: fhec run examples/rotations.mlir
// With HEAAN 2.1's form (keyswitch = "heaan" below) the slots' max error is
// about 2.2e-2 and fails fhec run's 2^-10 check; the default centered form's
// is about 4.2e-4 (measured: docs/design.md).
!ct = !ckks.ct<logN = 16, logq = 1200, logp = 30, slots = 32768>

module attributes {ckks.params = #ckks.params<logN = 16, logQ = 1200, logp = 30, security = "none">} {
  func.func @rotations(%a: !ct) -> (!ct, !ct, !ct, !ct) {
    // One op, four results: they share the decomposition of %a's ax.
    %r:4 = ckks.rotate %a [1, 2, 4, 8] : !ct
    return %r#0, %r#1, %r#2, %r#3 : !ct, !ct, !ct, !ct
  }
}
