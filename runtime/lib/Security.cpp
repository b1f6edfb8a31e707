#include "fhec/runtime/Security.h"
#include "fhec/runtime/Error.h"
#include "fhec/runtime/Limits.h"

#include <cmath>
#include <cstdio>

namespace fhec::rt {

namespace {
// Largest log2 q at 128, 192, 256 bits of classical security for a ternary
// secret (HE Standard Table 1; n = 2^16 from OpenFHE's HEStd_ternary).
struct Row {
  int logN;
  double maxLogq[3];
};
constexpr Row kTernary[] = {
    {10, {27, 19, 14}},    {11, {54, 37, 29}},    {12, {109, 75, 58}},     {13, {218, 152, 118}},
    {14, {438, 305, 237}}, {15, {881, 611, 476}}, {16, {1772, 1228, 956}},
};
constexpr double kLevels[3] = {128, 192, 256};
constexpr double kTableSigma = 3.19;
} // namespace

SecurityEstimate estimateSecurity(int logN, int logModulus, int h, double sigma) {
  if (logN < int(limits::kMinLogN) || logN > int(limits::kMaxLogN))
    throw Error("security estimate: logN = " + std::to_string(logN) + " is outside [" +
                std::to_string(limits::kMinLogN) + ", " + std::to_string(limits::kMaxLogN) + "]");
  if (logModulus < 1) throw Error("security estimate: the modulus must have at least one bit");
  SecurityEstimate e;
  e.logN = logN;
  e.logModulus = logModulus;
  e.h = h;
  e.sigma = sigma;
  // The row for this n; outside the table, scaled linearly in n (each column
  // of the table doubles with n, to within 1%).
  const Row *first = &kTernary[0], *last = &kTernary[std::size(kTernary) - 1];
  const Row *row = logN < first->logN ? first : logN > last->logN ? last : &kTernary[logN - first->logN];
  double scale = std::ldexp(1.0, logN - row->logN);
  double q[3];
  for (int i = 0; i < 3; ++i) q[i] = row->maxLogq[i] * scale;
  e.extrapolated = row->logN != logN;
  double x = 1.0 / logModulus;
  if (logModulus >= q[0]) {
    e.bits = kLevels[0] * q[0] / logModulus;  // below 128 bits: beyond the table
    e.extrapolated |= logModulus > q[0];
  } else if (logModulus <= q[2]) {
    e.bits = kLevels[2] * q[2] / logModulus;  // above 256 bits: beyond the table
    e.extrapolated |= logModulus < q[2];
  } else {
    int i = logModulus >= q[1] ? 0 : 1;  // between columns i and i + 1
    double xi = 1.0 / q[i], xj = 1.0 / q[i + 1];
    e.bits = kLevels[i] + (kLevels[i + 1] - kLevels[i]) * (x - xi) / (xj - xi);
  }
  e.sparseSecret = double(h) < (2.0 / 3.0) * double(size_t(1) << logN) / 2.0;
  e.smallSigma = sigma < kTableSigma;
  return e;
}

std::string SecurityEstimate::summary() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s%.0f bits (HE Standard tables, N = 2^%d, log2 of the largest modulus = %d%s)",
                sparseSecret || smallSigma ? "at most " : "about ", bits, logN, logModulus,
                extrapolated ? ", extrapolated beyond the tables" : "");
  return buf;
}

std::string SecurityEstimate::caveats() const {
  std::string s;
  if (sparseSecret)
    s += "the secret's Hamming weight h = " + std::to_string(h) + " is far below the 2N/3 of the uniform ternary " +
         "secret the tables assume: hybrid attacks on sparse secrets make it weaker than the tables say";
  if (smallSigma) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%ssigma = %.2f is below the tables' 3.19", s.empty() ? "" : "; ", sigma);
    s += buf;
  }
  return s;
}

std::string SecurityEstimate::str() const {
  std::string c = caveats();
  return c.empty() ? summary() : summary() + "; " + c;
}

} // namespace fhec::rt
