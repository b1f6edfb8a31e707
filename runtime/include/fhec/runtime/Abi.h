// The contract between compiled fhec modules and libfhec_runtime: the ABI
// version, the kinds of precomputed tables a kernel receives, the column layout
// of the per-prime constant table and the phase ids used by the timers.
// Header-only, shared by the compiler (fhe-to-loops, manifest emission) and the
// runtime (table construction, manifest parsing), so both sides agree by construction.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fhec::abi {

/// Bumped whenever the manifest format, an entry point's calling convention or a table layout changes.
constexpr uint32_t kAbiVersion = 13;

/// Words between consecutive prime rows of a prime-major (m, N) RNS buffer:
/// N plus three cache lines. With rows exactly N words (a power of two)
/// apart, the same coefficient of every prime falls into one cache set, and
/// the kernels that read a block of coefficients across all primes (CRT,
/// iCRT) would evict their own lines. Three lines rather than one, measured
/// on Zen 4 with the iCRT's prefetches in its multiply-accumulate loop: -8%
/// iCRT time (pads of one or two lines equally slow, of 3, 5, 9, 17 or 33
/// lines equally fast; the mechanism, without hardware counters in the VM,
/// is not pinned down).
constexpr int64_t rnsRowWords(int64_t N) { return N + 24; }

/// Symbols every compiled module exports.
constexpr const char *kAbiVersionSymbol = "__fhec_abi_version";
constexpr const char *kManifestSymbol = "__fhec_manifest";
/// Prefix of the `void entry(void **args)` wrapper generated for each function.
constexpr const char *kEntryPrefix = "__fhec_entry_";
/// Names of exported functions: C identifiers of at most this many characters
/// (the manifest is line- and space-separated; the entry symbol is derived).
constexpr size_t kMaxFunctionName = 200;
inline bool isExportableName(std::string_view s) {
  if (s.empty() || s.size() > kMaxFunctionName || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}
/// Argument roles of key-switching keys in RNS/NTT form: the evaluation key
/// ("evk.ax", "evk.bx") and the rotation key of Galois element g
/// ("rk<g>.ax", "rk<g>.bx"). Both are prepared by kEvkPrepareFunc.
inline std::string rotationKeyRole(uint64_t galois, bool bx) {
  return "rk" + std::to_string(galois) + (bx ? ".bx" : ".ax");
}
/// The role of part j of a key-switching key of hybrid key switching
/// (dnum > 1): part 0 has the key's role ("evk.ax", "rk5.bx"), part j > 0
/// that role followed by ".<j>" ("evk.ax.1").
inline std::string keyPartRole(const std::string &role, int part) {
  return part ? role + "." + std::to_string(part) : role;
}
/// The Galois element of a rotation-key role, or nullopt for other roles.
inline std::optional<uint64_t> rotationKeyGalois(std::string_view role) {
  if (role.size() < 6 || role.substr(0, 2) != "rk") return std::nullopt;
  std::string_view tail = role.substr(role.size() - 3);
  if (tail != ".ax" && tail != ".bx") return std::nullopt;
  std::string_view digits = role.substr(2, role.size() - 5);
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  uint64_t g = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    g = g * 10 + uint64_t(c - '0');
  }
  return g;
}
/// Argument roles of the sparse-secret encapsulation keys for ciphertexts at
/// q0 = 2^logq0 (rt::EncapsulationKey): "ek<logq0>.sparse.ax" / ".bx", the
/// key to the ephemeral secret, prepared by encapsulationPrepareFunc(logq0);
/// "ek<logq0>.dense.ax" / ".bx", the key back to the main secret, in parts
/// (keyPartRole) prepared by kEvkPrepareFunc like a rotation key.
inline std::string encapsulationKeyRole(int logq0, bool dense, bool bx) {
  return "ek" + std::to_string(logq0) + (dense ? ".dense" : ".sparse") + (bx ? ".bx" : ".ax");
}
/// The q0 (bits) of an encapsulation-key role (of any part), or nullopt for other roles.
inline std::optional<int> encapsulationKeyLogq(std::string_view role) {
  if (role.size() < 3 || role.substr(0, 2) != "ek") return std::nullopt;
  size_t pos = 2;
  int v = 0;
  while (pos < role.size() && role[pos] >= '0' && role[pos] <= '9' && pos < 8) v = v * 10 + (role[pos++] - '0');
  if (pos == 2 || pos >= role.size() || role[pos] != '.') return std::nullopt;
  std::string_view rest = role.substr(pos);
  if (rest.rfind(".sparse.", 0) != 0 && rest.rfind(".dense.", 0) != 0) return std::nullopt;
  return v;
}
/// Name of the generated function that brings the key to the ephemeral
/// secret (coefficients mod q0 P') into the RNS/NTT form its key switch reads.
inline std::string encapsulationPrepareFunc(int logq0) { return "__fhec_ek_prepare_" + std::to_string(logq0); }

/// The role of the polynomial a plaintext argument (!ckks.pt) becomes for one
/// use: the values of argument `index` (negated if `negate`) encoded at scale
/// 2^logScale mod 2^logq, "pt<index>@<logScale>,<logq>[,neg]". The runtime
/// encodes it at each call.
struct PlaintextUse {
  int index = 0, logScale = 0, logq = 0;
  bool negate = false;
};
inline std::string plaintextRole(const PlaintextUse &u) {
  return "pt" + std::to_string(u.index) + "@" + std::to_string(u.logScale) + "," + std::to_string(u.logq) +
         (u.negate ? ",neg" : "");
}
inline std::optional<PlaintextUse> parsePlaintextRole(std::string_view role) {
  if (role.size() < 6 || role.substr(0, 2) != "pt") return std::nullopt;
  PlaintextUse u;
  int *field[] = {&u.index, &u.logScale, &u.logq};
  size_t pos = 2;
  for (int k = 0; k < 3; ++k) {
    long v = 0;
    size_t start = pos;
    while (pos < role.size() && role[pos] >= '0' && role[pos] <= '9' && pos - start < 9) v = v * 10 + (role[pos++] - '0');
    if (pos == start) return std::nullopt;
    *field[k] = int(v);
    const char sep = k == 0 ? '@' : ',';
    if (k < 2) {
      if (pos >= role.size() || role[pos] != sep) return std::nullopt;
      ++pos;
    }
  }
  if (role.substr(pos) == ",neg") u.negate = true;
  else if (pos != role.size()) return std::nullopt;
  return u;
}

/// Name of the generated function that brings an evaluation-key polynomial
/// (coefficients mod Q^2) into the RNS/NTT form region 2 of HE Mul reads.
constexpr const char *kEvkPrepareFunc = "__fhec_evk_prepare";

/// Name of the generated function that computes, once when the module loads,
/// the values a function derives from its constants alone (fhe-hoist-constants:
/// a linear transform's diagonals in RNS/NTT form). It takes no arguments;
/// each result is an RNS value with role constantRole(k), which the functions
/// that read it take as an argument of that role.
constexpr const char *kConstantsPrepareFunc = "__fhec_constants_prepare";
inline std::string constantRole(int k) { return "const" + std::to_string(k); }
/// k of a role constantRole(k), or nullopt for other roles.
inline std::optional<int> constantRoleIndex(std::string_view role) {
  if (role.size() <= 5 || role.size() > 14 || role.substr(0, 5) != "const") return std::nullopt;
  int k = 0;
  for (char c : role.substr(5)) {
    if (c < '0' || c > '9') return std::nullopt;
    k = 10 * k + (c - '0');
  }
  return k;
}
inline bool isConstantRole(std::string_view role) { return constantRoleIndex(role).has_value(); }

/// The client kernels (key generation, encryption and decryption through NTT
/// products), a module of their own that codegen/ClientKernels.h builds for
/// the parameters and rt::KernelArithmetic (Client.h) calls:
/// - kClientPrepareSecret(s: poly<2> "s") -> rns "sk": the NTT form of the
///   ternary secret (a centered CRT), in the key basis;
/// - kClientPreparePublic(half: poly<logQ> "half") -> rns: the NTT form of a
///   half of a public-key polynomial pk = hi Q + lo (kept as "pk.ax.hi",
///   "pk.ax.lo", "pk.bx.hi", "pk.bx.lo"), in the encryption basis;
/// - kClientKeyB(a: poly<2 logQ> "a", E: poly<2 logQ> "E", "sk") -> poly<2 logQ> "b":
///   E - a s mod Q^2 (a key's bx; E = e + Q t built by the caller);
/// - kClientEncrypt(v: poly<2> "v", e0, e1: poly<kClientErrorBits> "e0", "e1",
///   m: poly<logQ> "m", "pk.ax.hi", "pk.ax.lo", "pk.bx.hi", "pk.bx.lo")
///   -> (poly<logQ> "ax", "bx"):
///   round((v pk.ax + e0) / Q), round((v pk.bx + e1) / Q) + m mod Q;
/// - clientDecryptFunc(logq)(ax, bx: poly<logq> "ax", "bx", "sk") -> poly<logq> "m":
///   bx + ax s mod 2^logq, exact for a secret with |s|_1 at most the module's
///   recorded weight (manifest `client secret_weight`);
/// - clientNarrowDecryptFunc(logq)(ax, bx: poly<logq> "ax", "bx", "sk")
///   -> (poly<w> "m", poly<b> "check"), for the levels whose decryption
///   takes three windows or more: bx + ax s mod 2^w (w = the width of the
///   lowest window), and r mod 2^b for r = (bx + ax s - c) mod p read
///   centered, where c is that result read centered and p in (2^b, 2^(b+1))
///   the prime of the module's one-prime basis; KernelArithmetic::decrypt
///   says how the check is read.
constexpr const char *kClientPrepareSecret = "__fhec_client_prepare_secret";
constexpr const char *kClientPreparePublic = "__fhec_client_prepare_public";
constexpr const char *kClientKeyB = "__fhec_client_key_b";
constexpr const char *kClientEncrypt = "__fhec_client_encrypt";
constexpr const char *kClientDecryptPrefix = "__fhec_client_decrypt_";
inline std::string clientDecryptFunc(int logq) { return kClientDecryptPrefix + std::to_string(logq); }
constexpr const char *kClientNarrowDecryptPrefix = "__fhec_client_narrow_decrypt_";
inline std::string clientNarrowDecryptFunc(int logq) { return kClientNarrowDecryptPrefix + std::to_string(logq); }
/// Bits of the error polynomials an encryption takes: signed values below
/// 2^29 (the iCRT addend's range), beyond any Gaussian tail the runtime draws.
constexpr int kClientErrorBits = 30;

/// Precomputed tables, all built by the runtime for one RNS basis and an
/// integer parameter `param` whose meaning depends on the kind.
/// Shapes are in 64-bit words; m = primes in the basis, N = ring dimension.
/// beta = 2^shoup_bits, the module's multiplier base (2^64 for 64-bit scalar
/// code, 2^52 for IFMA): Shoup constants are floor(w beta / p_j), and CRT
/// powers and the digit tables of the vector iCRT are in base beta.
enum class TableKind : int {
  PrimeConsts = 0,       ///< (m, kPrimeConstCols): see PrimeConst. param 0.
  NttTwiddles = 1,       ///< (m, N): psi^bitrev(i) mod p_j (Algo. 3's TBW). param 0; param 1 (Shoup base
                         ///< 2^32 only): each word also holds its twiddle's Shoup constant in bits 32..63.
  NttTwiddlesShoup = 2,  ///< (m, N): Shoup constants of the above.
  InttTwiddles = 3,      ///< (m, N): psi^-bitrev(i) mod p_j (TBinvW); param as NttTwiddles'.
  InttTwiddlesShoup = 4, ///< (m, N): Shoup constants of the above.
  CrtPowers = 5,         ///< (m, param): beta^k mod p_j, param = input digits (Algo. 1's TBCRT).
  IcrtPDivP = 6,         ///< (m, C): limbs 0..C-1 of P / p_j (Algo. 5/6's TBPdivp); C = param, or PLimbs if 0.
  IcrtP = 7,             ///< (1, C): limbs 0..C-1 of P = prod p_j; C as above.
  InttConsts = 8,        ///< (m, kInttConstCols): last-stage scalings of an iNTT that skips `param` stages.
  IncompleteZeta = 9,    ///< (m, 2 * N / 2^param): zeta_b and its Shoup constant per 2^param-coefficient block.
  IcrtColumns = 10,      ///< (param, m): digit c (base beta) of P / p_j at [c][j], the matrix form's columns (Algo. 6).
  IcrtNegP = 11,         ///< (1, param): digits (base beta) of (-P) mod beta^param, added k times instead of subtracting k P.
  NttTailTwiddles = 12,  ///< (m, kTailHeaderWords + N / 64 * kTailWordsPerGroup): the twiddles of the
                         ///< radix-8 sub-level of 8-residue blocks (forward: the last 3 stages, param 0;
                         ///< inverse: the first 3, param 1), 8 consecutive blocks side by side; see kTail*.
  CrtWinograd = 13,      ///< (m, param + 2), base 2^52 only: the IFMA CRT's Winograd form. s_k = 2^(51 k) mod p_j
                         ///< for k < param (even; 51-bit input digits), then B_j = sum_k s_2k s_2k+1 in two words
                         ///< (bits 0..51, bits 52..).
  IcrtWinograd = 14,     ///< (param, m + 3), base 2^52 only: the IFMA iCRT's Winograd form. Row c: digit c (base
                         ///< 2^51) of P/p_j for each j, then B_c = sum_{j < m - m % 2, j even} T_j[c] T_j+1[c]
                         ///< in two words (bits 0..51, bits 52..), then digit c of (-P) mod 2^(51 param).
  CrtCenter = 15,        ///< (m, 1): (-2^param) mod p_j, param = the input's logq: what a `centered` CRT adds
                         ///< for a coefficient whose top bit is set (x - 2^logq instead of x).
  IcrtWindow = 16,       ///< (icrtWindowColumns(param, P bits), m + 3), base 2^52 only: an icrt_sum window's
                         ///< Winograd columns, param = its offset mod 51. Row c: digit c (base 2^51) of
                         ///< (P/p_j) 2^param for each j, then B_c (as IcrtWinograd's) in two words, then
                         ///< digit c of P 2^param (subtracted k times).
  IcrtColumns30 = 17,    ///< (param, m): digit c (base 2^30) of P / p_j at [c][j], the GPU iCRT's columns.
  IcrtNegP30 = 18,       ///< (1, param): digits (base 2^30) of (-P) mod 2^(30 param), the GPU iCRT's k P.
  CrtPowers28 = 19,      ///< (m, param): 2^(28 k) mod p_j, param = input digits: the GPU CRT's powers.
};
constexpr int kNumTableKinds = 20;

/// Bits of the GPU iCRT's columns (the *30 tables): with residues below
/// 2^30, sixteen digit products (below 2^60 each) share one 64-bit sum.
constexpr int kGpuDigitBits = 30;
/// Bits of the GPU CRT's input digits (the CrtPowers28 table): with primes
/// below 2^30, 64 digit products (below 2^58 each) share one 64-bit sum.
constexpr int kGpuCrtDigitBits = 28;

/// Columns of an IcrtWindow table: the 51-bit digits of P 2^shift (and of
/// each P/p_j 2^shift) for a product P of pBits bits.
inline int64_t icrtWindowColumns(int64_t shift, int64_t pBits) { return (shift + pBits + 50) / 51; }

/// Layout of NttTailTwiddles. The tail's twiddle for group V of 8 blocks (64
/// residues), sub-stage d, twiddle group e and lane l (block 8 V + l) has an
/// index whose bits split into (d, e, l) and V, so it factors as
/// G[d][e][l] * H[d](V) (the twiddles at those two indices; bit reversal adds
/// over disjoint bits). The sub-stages with several twiddle groups (forward
/// d = 1, 2; inverse d = 0, 1) are stored factored: a header of the 6 lane
/// vectors G (in order of d then e: 8 twiddles, then their 8 Shoup
/// constants), and per group V the scalars H of those two sub-stages (twiddle,
/// Shoup; in order of d). The sub-stage with one twiddle group (forward d = 0,
/// inverse d = 2) is stored whole per group V (8 twiddles, 8 Shoup constants),
/// before the H scalars. 20 words per 64 residues instead of 112.
constexpr int kTailLanes = 8;
constexpr int kTailFactoredGroups = 6;
constexpr int kTailHeaderWords = kTailFactoredGroups * 2 * kTailLanes;
constexpr int kTailWordsPerGroup = 2 * kTailLanes + 2 * 2;

inline const char *tableKindName(TableKind k) {
  switch (k) {
  case TableKind::PrimeConsts: return "prime_consts";
  case TableKind::NttTwiddles: return "ntt_twiddles";
  case TableKind::NttTwiddlesShoup: return "ntt_twiddles_shoup";
  case TableKind::InttTwiddles: return "intt_twiddles";
  case TableKind::InttTwiddlesShoup: return "intt_twiddles_shoup";
  case TableKind::CrtPowers: return "crt_powers";
  case TableKind::IcrtPDivP: return "icrt_pdivp";
  case TableKind::IcrtP: return "icrt_p";
  case TableKind::InttConsts: return "intt_consts";
  case TableKind::IncompleteZeta: return "incomplete_zeta";
  case TableKind::IcrtColumns: return "icrt_columns";
  case TableKind::IcrtNegP: return "icrt_neg_p";
  case TableKind::NttTailTwiddles: return "ntt_tail_twiddles";
  case TableKind::CrtWinograd: return "crt_winograd";
  case TableKind::IcrtWinograd: return "icrt_winograd";
  case TableKind::CrtCenter: return "crt_center";
  case TableKind::IcrtWindow: return "icrt_window";
  case TableKind::IcrtColumns30: return "icrt_columns30";
  case TableKind::IcrtNegP30: return "icrt_neg_p30";
  case TableKind::CrtPowers28: return "crt_powers28";
  }
  return "?";
}

inline std::optional<TableKind> parseTableKind(std::string_view s) {
  for (int i = 0; i < kNumTableKinds; ++i)
    if (s == tableKindName(static_cast<TableKind>(i)))
      return static_cast<TableKind>(i);
  return std::nullopt;
}

/// Columns of the PrimeConsts table, one row per prime p_j of b bits.
enum PrimeConst : int {
  kPrime = 0,          ///< p_j
  kBarrettMu = 1,      ///< Barrett factor: floor(2^(2b) / p_j) (base 2^64), floor(2^(b + 50) / p_j) (base 2^52)
  kBarrettShift = 2,   ///< b, the bit width of p_j
  kNInv = 3,           ///< N^-1 mod p_j (last step of the iNTT)
  kNInvShoup = 4,      ///< Shoup constant of N^-1
  kIcrtInv = 5,        ///< (P/p_j)^-1 mod p_j (Algo. 5's TBinvP)
  kIcrtInvShoup = 6,   ///< Shoup constant of the above
  kInvPrimeF64 = 7,    ///< bits of the double 1/p_j (iCRT's overflow estimate)
  kBetaMod = 8,        ///< beta mod p_j (CRT's 3-word reduction)
  kBetaModShoup = 9,
  kBeta2Mod = 10,      ///< beta^2 mod p_j
  kBeta2ModShoup = 11,
  kOneShoup = 12,      ///< Shoup constant of 1: reduces one word with Shoup
  kPrimeConstCols = 16,
};

/// Columns of the InttConsts table for an iNTT of n = 2^(logN - param)
/// points (param = skipped stages). The last Gentleman-Sande stage computes
/// (u + v) * c and (u - v) * w * c with w = psi^-bitrev(1), so the scaling
/// costs nothing: c = n^-1 for a `coeff` result, n^-1 (P/p_j)^-1 for a
/// `coeff_scaled` one (iCRT's pre-multiplication folded in, fhe-fuse).
enum InttConst : int {
  kScale = 0, kScaleShoup, kScaleTw, kScaleTwShoup,
  kScaleIcrt, kScaleIcrtShoup, kScaleIcrtTw, kScaleIcrtTwShoup,
  kInttConstCols = 8,
};

/// Number of rows and columns of a table (row-major words).
struct TableShape {
  int64_t rows, cols;
};
/// `pBits` = bits of the basis product P.
inline TableShape tableShape(TableKind k, int64_t m, int logN, int64_t param, int64_t pBits) {
  int64_t N = int64_t(1) << logN, pLimbs = (pBits + 63) / 64;
  switch (k) {
  case TableKind::PrimeConsts: return {m, kPrimeConstCols};
  case TableKind::NttTwiddles:
  case TableKind::NttTwiddlesShoup:
  case TableKind::InttTwiddles:
  case TableKind::InttTwiddlesShoup: return {m, N};
  case TableKind::CrtPowers:
  case TableKind::CrtPowers28: return {m, param};
  case TableKind::CrtWinograd: return {m, param + 2};
  case TableKind::CrtCenter: return {m, 1};
  case TableKind::IcrtWinograd: return {param, m + 3};
  case TableKind::IcrtWindow: return {icrtWindowColumns(param, pBits), m + 3};
  case TableKind::IcrtPDivP: return {m, param ? param : pLimbs};
  case TableKind::IcrtP: return {1, param ? param : pLimbs};
  case TableKind::InttConsts: return {m, kInttConstCols};
  case TableKind::IncompleteZeta: return {m, 2 * (N >> param)};
  case TableKind::IcrtColumns:
  case TableKind::IcrtColumns30: return {param, m};
  case TableKind::IcrtNegP:
  case TableKind::IcrtNegP30: return {1, param};
  case TableKind::NttTailTwiddles: return {m, kTailHeaderWords + (N / 64) * kTailWordsPerGroup};
  }
  return {0, 0};
}

/// Kernel phases timed by the runtime (the rows of the paper's Table 7).
enum class Phase : int { Crt = 0, Ntt, Hadamard, Intt, Icrt, Other, Count };

inline const char *phaseName(Phase p) {
  switch (p) {
  case Phase::Crt: return "CRT";
  case Phase::Ntt: return "NTT";
  case Phase::Hadamard: return "Hadamard";
  case Phase::Intt: return "iNTT";
  case Phase::Icrt: return "iCRT";
  case Phase::Other: return "other";
  case Phase::Count: break;
  }
  return "?";
}

/// Hooks a compiled module calls around each kernel (defined by the runtime).
constexpr const char *kPhaseBeginSymbol = "fhec_rt_phase_begin";
constexpr const char *kPhaseEndSymbol = "fhec_rt_phase_end";
/// Called by the threads of a kernel that spans several phases (fhe.fused
/// rows) after each stage of a row: the time since the thread's previous lap
/// counts for that phase (a negative phase starts the clock).
constexpr const char *kPhaseLapSymbol = "fhec_rt_phase_lap";

// GPU targets: the host code of a module launches its kernels through these
// hooks. Every kernel argument is passed in an 8-byte slot (pointers, i64;
// i32 in the low half).
/// void(const char *ptx, const char *kernel, int64 gx, gy, gz, bx, by, bz,
///      int64 sharedBytes, int64 *slots, int32 numSlots) -- target cuda
constexpr const char *kGpuCudaLaunchSymbol = "fhec_rt_gpu_cuda_launch";
/// void(void (*trampoline)(int64 *slots), int64 gx, gy, gz, bx, by, bz,
///      int64 sharedBytes, int64 *slots, int32 flags) -- target cuda-emu
constexpr const char *kGpuEmuLaunchSymbol = "fhec_rt_gpu_emu_launch";
/// flags of an emulated launch: the kernel uses shared memory or barriers, so
/// the threads of a block must run together (else any order will do).
constexpr int32_t kGpuEmuBlockSync = 1;
/// void *(): the calling emulated thread's block shared memory
/// (kGpuSharedMemoryBytes, 16-byte aligned), where a kernel's workgroup
/// buffers lie one after the other.
constexpr const char *kGpuSharedMemorySymbol = "fhec_rt_gpu_shared_memory";
/// Static shared memory of one block: CUDA's limit without opt-in.
constexpr int64_t kGpuSharedMemoryBytes = 48 * 1024;
/// int64(int32 dim) of the calling emulated thread (cuda-emu kernels).
constexpr const char *kGpuThreadIdSymbol = "fhec_rt_gpu_thread_id";
constexpr const char *kGpuBlockIdSymbol = "fhec_rt_gpu_block_id";
constexpr const char *kGpuBlockDimSymbol = "fhec_rt_gpu_block_dim";
constexpr const char *kGpuGridDimSymbol = "fhec_rt_gpu_grid_dim";
/// void(): the barrier of the calling thread's block (cuda-emu kernels).
constexpr const char *kGpuBarrierSymbol = "fhec_rt_gpu_barrier";
// cuda-emu modules compiled with --gpu-trace (fhec-gpu-emu-trace) report to
// the recorder of the GPU cost model (fhec/runtime/GpuTrace.h).
/// void(const char *kernel): called by every thread when its kernel starts.
constexpr const char *kGpuTraceKernelSymbol = "fhec_rt_gpu_trace_kernel";
/// void(int32 site, index address, int32 bytes, int32 kind): one memory
/// access; site numbers the access in the module, kind = 2 * space + store.
constexpr const char *kGpuTraceAccessSymbol = "fhec_rt_gpu_trace_access";
/// void(int32 weight): a basic block's issue weight (32-bit instruction slots).
constexpr const char *kGpuTraceOpsSymbol = "fhec_rt_gpu_trace_ops";
/// The memory spaces of traced accesses.
enum class GpuTraceSpace : int32_t { Global = 0, Shared = 1, Local = 2 };
/// The PTX text of a cuda module (NUL-terminated), one module with every kernel.
constexpr const char *kGpuPtxSymbol = "__fhec_gpu_ptx";
/// Prefix of the cuda-emu trampolines: void __fhec_emu_<kernel>(int64 *slots).
constexpr const char *kEmuTrampolinePrefix = "__fhec_emu_";

} // namespace fhec::abi
