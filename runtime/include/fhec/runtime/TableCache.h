// The kernels' tables (Tables.h) shared by every executor of the process.
// A program's RNS bases (one per level and product region) are mostly
// prefixes of one another, and a table whose rows are per prime (twiddles,
// CRT powers) of a prefix basis is the first rows of the longer basis's
// table: at N = 2^16 a bootstrapping program's 41 bases hold 1486 prime rows
// of 54 distinct primes, 3 GB of twiddles per executor if each basis had its own.
#pragma once
#include "fhec/runtime/Abi.h"
#include "fhec/runtime/Buffer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace fhec::rt {

/// A table's words, read-only: `words` words at `data` (64-byte aligned),
/// kept alive by `owner`, which may hold more rows after them.
struct TableView {
  std::shared_ptr<const Buffer> owner;
  const uint64_t *data = nullptr;
  size_t words = 0;
};

/// Whether row j of a table of this kind depends on prime j alone, its row
/// length not on the basis (twiddles, CRT powers and centring constants): then
/// the table of a basis's first k primes is the first k rows of its table.
bool tableRowsArePerPrime(abi::TableKind kind);

/// buildTable(kind, primes, logN, param, shoupBits), built once while anyone
/// holds it: a later call for the same table, or for a per-prime kind's table
/// of a basis that begins with `primes`, gets the same words. Thread-safe.
/// Throws what buildTable throws.
TableView sharedTable(abi::TableKind kind, const std::vector<uint64_t> &primes, int logN, int64_t param,
                      int shoupBits);

} // namespace fhec::rt
