#include "fhec/runtime/TableCache.h"
#include "fhec/runtime/Tables.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace fhec::rt {

using abi::TableKind;

bool tableRowsArePerPrime(TableKind kind) {
  switch (kind) {
  case TableKind::NttTwiddles:
  case TableKind::NttTwiddlesShoup:
  case TableKind::InttTwiddles:
  case TableKind::InttTwiddlesShoup:
  case TableKind::NttTailTwiddles:
  case TableKind::IncompleteZeta:
  case TableKind::CrtPowers:
  case TableKind::CrtPowers28:
  case TableKind::CrtWinograd:
  case TableKind::CrtCenter: return true;
  default: return false;  // PrimeConsts and InttConsts hold (P/p_j)^-1; the iCRT tables are P's
  }
}

namespace {
struct Entry {
  TableKind kind;
  int logN;
  int64_t param;
  int shoupBits;
  std::vector<uint64_t> primes;
  std::weak_ptr<const Buffer> table;
};

std::mutex cacheMutex;
std::vector<Entry> cache;  // a few hundred tables per program: a scan is cheap

// A cached table that holds the requested one, or null. Drops expired entries.
TableView find(TableKind kind, const std::vector<uint64_t> &primes, int logN, int64_t param, int shoupBits) {
  cache.erase(std::remove_if(cache.begin(), cache.end(), [](const Entry &e) { return e.table.expired(); }),
              cache.end());
  const bool perPrime = tableRowsArePerPrime(kind);
  for (const Entry &e : cache) {
    if (e.kind != kind || e.logN != logN || e.param != param || e.shoupBits != shoupBits) continue;
    bool same = e.primes == primes;
    bool prefix = perPrime && e.primes.size() > primes.size() &&
                  std::equal(primes.begin(), primes.end(), e.primes.begin());
    if (!same && !prefix) continue;
    std::shared_ptr<const Buffer> t = e.table.lock();
    if (!t) continue;
    size_t words = same ? t->size() : t->size() / e.primes.size() * primes.size();
    const uint64_t *data = t->data();
    return {std::move(t), data, words};
  }
  return {};
}
} // namespace

TableView sharedTable(TableKind kind, const std::vector<uint64_t> &primes, int logN, int64_t param, int shoupBits) {
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    TableView v = find(kind, primes, logN, param, shoupBits);
    if (v.owner) return v;
  }
  // Built outside the lock (a 54-prime twiddle table at N = 2^16 takes
  // about 0.1 s); two threads that race for one table each keep their own.
  std::vector<uint64_t> words = buildTable(kind, primes, logN, param, shoupBits);
  auto table = std::make_shared<Buffer>(words.size());
  if (!words.empty()) std::memcpy(table->data(), words.data(), words.size() * sizeof(uint64_t));
  std::lock_guard<std::mutex> lock(cacheMutex);
  cache.push_back({kind, logN, param, shoupBits, primes, table});
  return {table, table->data(), table->size()};
}

} // namespace fhec::rt
