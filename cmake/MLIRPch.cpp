// The translation unit of FHECMLIRPch (CMakeLists.txt): it builds the
// precompiled MLIR headers that the compiler's libraries reuse, and nothing else.
