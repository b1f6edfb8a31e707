#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Primes.h"
#include "fhec/runtime/TableCache.h"
#include "fhec/runtime/Tables.h"

#include <gtest/gtest.h>
#include <utility>
#include <vector>

using namespace ::fhec::rt;
using fhec::abi::TableKind;

namespace {
// Every table kind with a parameter it takes at Shoup base 2^52 and N = 2^10.
std::vector<std::pair<TableKind, int64_t>> everyKind() {
  return {{TableKind::PrimeConsts, 0},   {TableKind::NttTwiddles, 0},     {TableKind::NttTwiddlesShoup, 0},
          {TableKind::InttTwiddles, 0},  {TableKind::InttTwiddlesShoup, 0}, {TableKind::CrtPowers, 5},
          {TableKind::IcrtPDivP, 0},     {TableKind::IcrtP, 0},           {TableKind::InttConsts, 2},
          {TableKind::IncompleteZeta, 3}, {TableKind::IcrtColumns, 3},     {TableKind::IcrtNegP, 3},
          {TableKind::NttTailTwiddles, 1}, {TableKind::CrtWinograd, 4},    {TableKind::IcrtWinograd, 3},
          {TableKind::CrtCenter, 90},    {TableKind::IcrtWindow, 7},      {TableKind::IcrtColumns30, 3},
          {TableKind::IcrtNegP30, 3},    {TableKind::CrtPowers28, 5}};
}
} // namespace

// A shared table has buildTable's words whether it was built for its basis or
// is the first rows of a longer basis's table: so the per-prime claim holds.
TEST(TableCache, SharedTablesHoldBuildTablesWords) {
  const int logN = 10;
  std::vector<uint64_t> longer = nttPrimes(logN, 50, 7), prefix(longer.begin(), longer.begin() + 4);
  for (auto [kind, param] : everyKind()) {
    SCOPED_TRACE(fhec::abi::tableKindName(kind));
    TableView whole = sharedTable(kind, longer, logN, param, 52);
    TableView part = sharedTable(kind, prefix, logN, param, 52);
    std::vector<uint64_t> expected = buildTable(kind, prefix, logN, param, 52);
    ASSERT_EQ(part.words, expected.size());
    EXPECT_EQ(std::vector<uint64_t>(part.data, part.data + part.words), expected);
    // Per-prime tables are one allocation; the others depend on P, and a
    // prefix of the longer basis's table would be wrong for them.
    EXPECT_EQ(part.owner == whole.owner, tableRowsArePerPrime(kind));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(part.data) % 64, 0u);
  }
}

TEST(TableCache, EqualRequestsShareOneTableWhileHeld) {
  const int logN = 10;
  // Primes 1 mod 2^(logN + 2): NTT primes for both rings below.
  std::vector<uint64_t> primes = nttPrimes(logN + 1, 50, 3), other = nttPrimes(logN, 48, 3);
  TableView a = sharedTable(TableKind::NttTwiddles, primes, logN, 0, 52);
  EXPECT_EQ(sharedTable(TableKind::NttTwiddles, primes, logN, 0, 52).owner, a.owner);
  // Another basis, parameter, Shoup base or ring is another table.
  EXPECT_NE(sharedTable(TableKind::NttTwiddles, other, logN, 0, 52).owner, a.owner);
  EXPECT_NE(sharedTable(TableKind::NttTwiddles, primes, logN, 0, 64).owner, a.owner);
  EXPECT_NE(sharedTable(TableKind::NttTwiddles, primes, logN + 1, 0, 52).owner, a.owner);
  EXPECT_NE(sharedTable(TableKind::CrtPowers, primes, logN, 4, 52).owner,
            sharedTable(TableKind::CrtPowers, primes, logN, 6, 52).owner);
  // A basis that is not a prefix (the same primes in another order) is not served by a's rows.
  std::vector<uint64_t> reversed(primes.rbegin(), primes.rend());
  TableView r = sharedTable(TableKind::NttTwiddles, reversed, logN, 0, 52);
  EXPECT_NE(r.owner, a.owner);
  EXPECT_EQ(std::vector<uint64_t>(r.data, r.data + r.words), buildTable(TableKind::NttTwiddles, reversed, logN, 0, 52));
}
