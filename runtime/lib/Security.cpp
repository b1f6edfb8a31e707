#include "fhec/runtime/Security.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/LatticeEstimator.h"
#include "fhec/runtime/Limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

namespace fhec::rt {

namespace {

// HE Standard v2 (Bossuat, Cammarota, Chillotti, Curtis, Dai, Gong, Hunt,
// Joye, Laine, Player, Polyakov, Rohloff, Schneider, Shen, Song, Vaikuntanathan,
// "Security Guidelines for Implementing Homomorphic Encryption", ePrint
// 2024/463), Table 5.2: the largest log2(QP) at 128, 192 and 256 bits of
// classical security for a uniform ternary secret and sigma = 3.19. The table
// has no 192- and 256-bit entries for N = 2^10 (0 here).
struct Row {
  int logN;
  int maxLogQ[3];
};
constexpr Row kTernaryV2[] = {
    {10, {26, 0, 0}},         {11, {53, 36, 27}},       {12, {106, 73, 56}},      {13, {214, 147, 114}},
    {14, {430, 297, 230}},    {15, {868, 597, 462}},    {16, {1747, 1199, 929}},  {17, {3523, 2411, 1866}},
};
constexpr double kLevels[3] = {128, 192, 256};
constexpr int kFirstLogN = 10, kLastLogN = 17;
constexpr double kTableSigma = 3.19;
/// Reported when no attack of the model succeeds with BKZ block sizes <= 1754
/// (each would cost more than about 2^512).
constexpr double kModelCeiling = 512;

const char *kTablesMethod = "HE Standard v2 tables (ePrint 2024/463, Table 5.2)";
const char *kModelMethod = "lattice-estimator model (usvp, bdd, primal and dual hybrids; MATZOV cost, GSA)";

const Row &nearestRow(int logN) {
  int i = logN < kFirstLogN ? 0 : logN > kLastLogN ? kLastLogN - kFirstLogN : logN - kFirstLogN;
  return kTernaryV2[i];
}

/// The table's columns for a row, as (level, largest log2 QP) pairs, scaled
/// by 2^(logN - row) when logN lies outside the table (each column doubles
/// with N to within 1%).
int columns(int logN, double lv[3], double q[3]) {
  const Row &row = nearestRow(logN);
  double scale = std::ldexp(1.0, logN - row.logN);
  int k = 0;
  for (int i = 0; i < 3; ++i)
    if (row.maxLogQ[i] > 0) lv[k] = kLevels[i], q[k] = row.maxLogQ[i] * scale, ++k;
  return k;
}

void estimateFromTables(SecurityEstimate &e) {
  double lv[3], q[3];
  int k = columns(e.logN, lv, q);
  double logq = e.logModulus;
  e.extrapolated = e.logN < kFirstLogN || e.logN > kLastLogN;
  if (logq >= q[0]) {  // at or below the lowest level: the attacks' cost scales like N / log q
    e.bits = lv[0] * q[0] / logq;
    e.extrapolated |= logq > q[0];
  } else if (logq <= q[k - 1]) {  // at or above the highest level
    e.bits = lv[k - 1] * q[k - 1] / logq;
    e.extrapolated |= logq < q[k - 1];
  } else {  // between columns i and i + 1, linear in 1/log q (the cost's own shape)
    int i = 0;
    while (logq < q[i + 1]) ++i;
    double x = 1.0 / logq, xi = 1.0 / q[i], xj = 1.0 / q[i + 1];
    e.bits = lv[i] + (lv[i + 1] - lv[i]) * (x - xi) / (xj - xi);
  }
  e.method = kTablesMethod;
}

void estimateFromModel(SecurityEstimate &e) {
  lattice::Instance in;
  in.n = 1L << e.logN;
  in.log2q = e.logModulus;
  in.sigma = e.sigma;
  in.h = e.h;
  lattice::Estimate est = lattice::estimate(in);
  const lattice::AttackCost &c = est.cheapest();
  if (std::isfinite(c.bits)) {
    e.bits = c.bits;
    e.attack = c.name;
  } else {
    e.bits = kModelCeiling;
    e.attack = "none with BKZ block size <= 1754";
  }
  e.method = kModelMethod;
  // The model's approximations (large lattice dimension) and its published
  // cross-checks cover N = 2^10 .. 2^17.
  e.extrapolated = e.logN < kFirstLogN;
}

/// Sparse estimates take milliseconds; compiles and key generation ask for
/// the same few parameter sets again and again.
SecurityEstimate memoisedModel(const SecurityEstimate &key) {
  using Key = std::tuple<int, int, int, double>;
  static std::mutex mutex;
  static std::map<Key, SecurityEstimate> cache;
  Key k{key.logN, key.logModulus, key.h, key.sigma};
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(k);
    if (it != cache.end()) return it->second;
  }
  SecurityEstimate e = key;
  estimateFromModel(e);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 4096) cache.clear();
  cache.emplace(k, e);
  return e;
}

std::string secretText(SecretKind kind, int h) {
  return kind == SecretKind::Sparse ? "sparse ternary secret, h = " + std::to_string(h) : "uniform ternary secret";
}

} // namespace

SecurityEstimate estimateSecurity(int logN, int logModulus, SecretKind secret, int h, double sigma) {
  if (logN < int(limits::kMinLogN) || logN > int(limits::kMaxLogN))
    throw Error("security estimate: logN = " + std::to_string(logN) + " is outside [" +
                std::to_string(limits::kMinLogN) + ", " + std::to_string(limits::kMaxLogN) + "]");
  if (logModulus < 1) throw Error("security estimate: the modulus must have at least one bit");
  if (secret != SecretKind::Ternary && secret != SecretKind::Sparse)
    throw Error("security estimate: unknown secret kind " + std::to_string(int32_t(secret)));
  if (secret == SecretKind::Sparse && (h < 1 || (int64_t(h) > (int64_t(1) << logN))))
    throw Error("security estimate: a sparse secret's Hamming weight h = " + std::to_string(h) +
                " is outside [1, N = 2^" + std::to_string(logN) + "]");
  if (!(sigma > 0)) throw Error("security estimate: the error's standard deviation must be positive");
  SecurityEstimate e;
  e.logN = logN;
  e.logModulus = logModulus;
  e.secret = secret;
  e.h = secret == SecretKind::Sparse ? h : 0;
  e.sigma = sigma;
  if (secret == SecretKind::Sparse) e = memoisedModel(e);
  else estimateFromTables(e);
  e.smallSigma = sigma < kTableSigma;
  return e;
}

bool SecurityEstimate::grants(int level) const {
  if (smallSigma || !std::isfinite(bits)) return false;
  if (secret == SecretKind::Sparse) return !extrapolated && bits >= level;
  // Tables: only rows they have, never below their lowest level, never above
  // their highest column (a modulus below that column is granted that level).
  if (logN < kFirstLogN || logN > kLastLogN) return false;
  double lv[3], q[3];
  int k = columns(logN, lv, q);
  if (logModulus > q[0]) return false;
  return level <= std::min(bits, lv[k - 1]);
}

std::string SecurityEstimate::summary() const {
  char buf[320];
  if (secret == SecretKind::Sparse)
    std::snprintf(buf, sizeof buf,
                  "about %.0f bits (lattice-estimator model, cheapest attack %s, %s, N = 2^%d, log2 of the largest "
                  "modulus = %d%s)",
                  bits, attack.c_str(), secretText(secret, h).c_str(), logN, logModulus,
                  extrapolated ? ", outside the model's range" : "");
  else
    std::snprintf(buf, sizeof buf, "about %.0f bits (HE Standard v2 tables, %s, N = 2^%d, log2 of the largest modulus = %d%s)",
                  bits, secretText(secret, h).c_str(), logN, logModulus,
                  extrapolated ? ", extrapolated beyond the tables" : "");
  return buf;
}

std::string SecurityEstimate::caveats() const {
  std::string s;
  auto add = [&](const std::string &t) { s += (s.empty() ? "" : "; ") + t; };
  char buf[256];
  if (extrapolated) {
    if (logN < kFirstLogN || (secret == SecretKind::Ternary && logN > kLastLogN)) {
      std::snprintf(buf, sizeof buf, "N = 2^%d is outside the %s (N = 2^%d .. 2^%d): the level is extrapolated and not granted",
                    logN, secret == SecretKind::Sparse ? "model's checked range" : "tables", kFirstLogN, kLastLogN);
    } else {
      double lv[3], q[3];
      int k = columns(logN, lv, q);
      if (logModulus > q[0])
        std::snprintf(buf, sizeof buf,
                      "log2 of the modulus %d is above the tables' %.0f-bit bound %.0f for N = 2^%d: the level is "
                      "extrapolated and not granted",
                      logModulus, lv[0], q[0], logN);
      else
        std::snprintf(buf, sizeof buf, "above the tables' highest level (%.0f bits) the number is extrapolated", lv[k - 1]);
    }
    add(buf);
  }
  if (smallSigma) {
    std::snprintf(buf, sizeof buf, "sigma = %.2f is below the 3.19 the %s assumes: not granted", sigma,
                  secret == SecretKind::Sparse ? "model" : "table");
    add(buf);
  }
  return s;
}

std::string SecurityEstimate::str() const {
  std::string c = caveats();
  return c.empty() ? summary() : summary() + "; " + c;
}

} // namespace fhec::rt
