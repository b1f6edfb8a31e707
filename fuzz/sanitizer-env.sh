# Sanitizer run-time options of build-san/ (sourced by scripts/sanitize.sh and
# scripts/fuzz.sh; source it before running build-san/ binaries by hand).
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in code
# built with ASan (ours, from the LLVM headers) but not in the uninstrumented
# libMLIR/libLLVM, whose allocations in those slabs would then read as
# use-after-poison when our code touches them (e.g. attribute storage).
# UBSan stops at the first report with a stack trace; LeakSanitizer reads
# fuzz/lsan.supp.
_fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allow_user_poisoning=0:detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$_fuzz_dir/lsan.supp:print_suppressions=0"
unset _fuzz_dir
