// NTT and iNTT (Jung et al. 2021, Algo. 3/4) per prime, in levels: each level
// of k radix-2 stages is one pass over memory (fhe-merge-ntt-levels records
// the grouping; one stage per level by default). The level's elements form
// contiguous blocks; a block is taken through its k stages depth-first, in
// sub-levels of at most the target's register radix R: every radix-2^r
// sub-transform is loaded, done in registers (fully unrolled butterflies) and
// stored while the block stays in cache (GPU targets: NttGpu.cpp). Harvey's
// butterflies keep residues lazily in [0, 4p) (forward) or
// [0, 2p) (inverse) with Shoup products by the bit-reversed twiddles; the
// inverse's last stage applies the scaling constant n^-1 (times (P/p_j)^-1
// for a coeff_scaled result). The first level reads the input and writes the
// result buffer; later levels work in place on the result.
#include "conversion/FHEToLoops/Ntt.h"
#include "conversion/FHEToLoops/Patterns.h"

using namespace mlir;

namespace fhec {

// y tw in [0, 2p) for y < 4p.
Value NttButterflies::twiddleMul(Value y, const Twiddle &tw, Value p) {
  Value t = kb.mulShoup(y, tw.w, tw.ws, p, 2);
  return tw.h ? kb.mulShoup(t, tw.h, tw.hs, p, 2) : t;
}

// Harvey's forward (Cooley-Tukey) butterflies of a radix-2^k sub-transform:
// at sub-stage d the pairs (u, u + 2^(k-1-d)) of group u >> (k-d) use
// W[d][group]. Inputs and outputs in [0, 4p).
void NttButterflies::forwardButterflies(SmallVectorImpl<Value> &x, int64_t k, ArrayRef<Twiddles> Ws, Value p) {
  int64_t R = int64_t(1) << k, sets = int64_t(x.size()) / R;
  assert((Ws.size() == 1 || int64_t(Ws.size()) == sets) && "one Twiddles, or one per sub-transform");
  for (int64_t d = 0; d < k; ++d) {
    int64_t half = R >> (d + 1);
    for (int64_t u = 0; u < R; ++u) {
      if (u & half) continue;
      for (int64_t q = 0; q < sets; ++q) {
        Value &a = x[q * R + u], &c = x[q * R + u + half];
        // X in [0, 4p) -> [0, 2p); W Y in [0, 2p); outputs in [0, 4p).
        Value xr = kb.reduce(a, p, 4, 2);
        Value t = twiddleMul(c, Ws[Ws.size() == 1 ? 0 : q][d][u >> (k - d)], p);
        a = kb.modAdd(xr, t, p, 2, 4);
        c = kb.modSub(xr, t, p, 2, 4);
      }
    }
  }
}

// Harvey's inverse (Gentleman-Sande) butterflies of the sub-transform at
// stages s..s+k-1: at sub-stage d the pairs (u, u + 2^d) of group
// u >> (d+1) use W[d][group]; inputs and outputs in [0, 2p). The
// transform's very last stage applies the scaling constants instead.
void NttButterflies::inverseButterflies(SmallVectorImpl<Value> &x, int64_t s, int64_t k, int64_t logN,
                                        ArrayRef<Twiddles> Ws, Value p, const std::array<Value, 4> &scale) {
  int64_t R = int64_t(1) << k, sets = int64_t(x.size()) / R;
  assert((Ws.size() == 1 || int64_t(Ws.size()) == sets) && "one Twiddles, or one per sub-transform");
  for (int64_t d = 0; d < k; ++d) {
    int64_t half = int64_t(1) << d;
    bool lastStage = s + d == logN - 1;
    for (int64_t u = 0; u < R; ++u) {
      if (u & half) continue;
      for (int64_t q = 0; q < sets; ++q) {
        Value a = x[q * R + u], c = x[q * R + u + half];
        if (lastStage) {
          // (u + v) c and (u - v) w c, reduced to [0, scaledRange p).
          x[q * R + u] = kb.mulShoup(kb.modAdd(a, c, p, 2, 4), scale[0], scale[1], p, scaledRange);
          x[q * R + u + half] = kb.mulShoup(kb.modSub(a, c, p, 2, 4), scale[2], scale[3], p, scaledRange);
          continue;
        }
        x[q * R + u] = kb.modAdd(a, c, p, 2, 2);
        x[q * R + u + half] = twiddleMul(kb.modSub(a, c, p, 2, 4), Ws[Ws.size() == 1 ? 0 : q][d][u >> (d + 1)], p);
      }
    }
  }
}

TransformPlan planTransform(KernelBuilder &kb, Operation *op) {
  TransformPlan t;
  t.inverse = isa<fhe::InttOp>(op);
  auto inT = cast<fhe::RnsType>(op->getOperand(0).getType()), outT = cast<fhe::RnsType>(op->getResult(0).getType());
  fhe::RnsType evalT = t.inverse ? inT : outT;
  t.logN = evalT.getLogN();
  t.N = evalT.getN();
  t.skip = evalT.getIncomplete();
  if (std::optional<ArrayRef<int64_t>> levels = fhe::transformLevels(op))
    t.levels.assign(levels->begin(), levels->end());
  else
    t.levels.assign(size_t(t.logN - t.skip), 1);
  t.basis = outT.getBasis();
  t.consts = kb.table(abi::TableKind::PrimeConsts, t.basis, 0, t.logN);
  auto twKind = t.inverse ? abi::TableKind::InttTwiddles : abi::TableKind::NttTwiddles;
  auto twsKind = t.inverse ? abi::TableKind::InttTwiddlesShoup : abi::TableKind::NttTwiddlesShoup;
  // With 32-bit Shoup constants a twiddle and its constant share a word: one
  // load, half the twiddle bytes (the GPU levels are DRAM-bound). The table
  // is read as 32-bit halves, so that each arrives in a register of its own
  // (a 64-bit load and a shift by 32 let LLVM turn the Shoup multiply-high
  // into a 64-bit multiply).
  t.packed = kb.options.target->packedTwiddles;
  t.tw = kb.table(twKind, t.basis, t.packed ? 1 : 0, t.logN, t.packed ? 32 : 64);
  if (!t.packed) t.twShoup = kb.table(twsKind, t.basis, 0, t.logN);
  if (t.inverse) {
    t.scaleTable = kb.table(abi::TableKind::InttConsts, t.basis, t.skip, t.logN, t.packed ? 32 : 64);
    bool scaled = outT.getDomain() == fhe::Domain::coeff_scaled;
    t.scaleBase = scaled ? abi::kScaleIcrt : abi::kScale;
    t.scaledRange = scaled ? 2 : 1;
  }
  return t;
}

std::array<Value, 4> TransformPlan::scale(KernelBuilder &kb, Value j) const {
  std::array<Value, 4> c;
  if (inverse)
    for (int i = 0; i < 4; ++i) c[i] = kb.tableAt(scaleTable, j, (scaleBase + i) * (packed ? 2 : 1));
  return c;
}

NttButterflies::Twiddles TransformPlan::twiddles(KernelBuilder &kb, Value j, int64_t first, int64_t r, Value blk,
                                                 int64_t W) const {
  NttButterflies::Twiddles out(r);
  for (int64_t d = 0; d < r; ++d) {
    if (inverse && first + d == logN - 1) continue;  // the scaled last stage
    int64_t groups = int64_t(1) << (inverse ? r - d - 1 : d);
    int64_t stageBase = inverse ? N >> (first + d + 1) : int64_t(1) << (first + d);
    // The groups' twiddle (and Shoup) words from stageBase + blk groups; on a
    // GPU a thread's 2^d consecutive words as vector loads (a warp's request
    // then covers whole sectors, not every 2^d-th word). Packed: `per` = 2
    // halves a group, its twiddle and its constant.
    int64_t per = packed ? 2 : 1;
    Value at = kb.add(kb.cidx(per * stageBase), kb.mul(blk, kb.cidx(per * groups)));
    auto words = [&](Value table) {
      if (kb.options.target->gpu && per * groups > 1)
        return kb.loadRun(table, {j, at}, per * groups, std::min<int64_t>(16, 8 * groups));
      SmallVector<Value> v;
      for (int64_t e = 0; e < per * groups; ++e) v.push_back(kb.load(table, {j, kb.add(kb.cidx(e), at)}));
      return v;
    };
    SmallVector<Value> w = words(tw), ws = packed ? SmallVector<Value>() : words(twShoup);
    for (int64_t g = 0; g < groups; ++g) {
      Value tw = packed ? w[2 * g] : w[g], tws = packed ? w[2 * g + 1] : ws[g];
      out[d].push_back({kb.splat(tw, W), kb.splat(tws, W), Value(), Value()});
    }
  }
  return out;
}

SmallVector<std::pair<int64_t, int64_t>> subLevels(int64_t s, int64_t k, int64_t radix, bool inverse, bool last) {
  SmallVector<std::pair<int64_t, int64_t>> out;
  for (int64_t t = s; t < s + k;) {
    int64_t r = !inverse && last && t == s && k % radix ? k % radix : std::min(radix, s + k - t);
    out.push_back({t, r});
    t += r;
  }
  return out;
}

SmallVector<std::pair<int64_t, int64_t>> gpuSubLevels(int64_t s, int64_t k, int64_t radix, bool inverse) {
  SmallVector<std::pair<int64_t, int64_t>> out;
  for (int64_t t = s; t < s + k;) {
    int64_t r = inverse && t == s && k % radix ? k % radix : std::min(radix, s + k - t);
    out.push_back({t, r});
    t += r;
  }
  return out;
}

namespace {

struct NttEmitter : NttButterflies {
  int64_t N;
  const TransformPlan &plan;
  Value j, p;         // prime row and its modulus

  // A sub-level whose sub-transforms are at least the target's lanes apart
  // runs W = lanes of them at once (consecutive r, contiguous elements).
  int64_t widthFor(int64_t stride) {
    int64_t lanes = kb.options.target->lanes;
    return stride % lanes == 0 ? lanes : 1;
  }

  // For r in [0, stride): loads the R residues base + r + u stride of row j
  // from src, lets `butterflies` transform them in registers, stores them to
  // dst. `butterflies` may get several such sets of R, one after the other.
  void subTransforms(Value src, Value dst, Value base, int64_t stride, int64_t R, int64_t W,
                     function_ref<void(SmallVectorImpl<Value> &)> butterflies) {
    // Vector targets take two sub-transforms (r, r + W) per iteration, their
    // butterflies interleaved stage by stage: two independent chains of
    // IFMA latency in flight (measured on Zen 4: -4% forward NTT time,
    // -2.5% inverse; the 16 residues and the twiddles still fit the 32
    // registers).
    int64_t sets = W > 1 && stride % (2 * W) == 0 ? 2 : 1;
    kb.loop(kb.cidx(0), kb.cidx(stride), kb.cidx(W * sets), {}, [&](Value r, ValueRange) {
      SmallVector<Value> idx(R * sets), x(R * sets);
      for (int64_t q = 0; q < sets; ++q) {
        Value start = kb.add(base, kb.add(r, kb.cidx(q * W)));
        for (int64_t u = 0; u < R; ++u) {
          idx[q * R + u] = kb.add(start, kb.cidx(u * stride));
          x[q * R + u] = kb.loadW(src, {j, idx[q * R + u]}, W);
        }
      }
      butterflies(x);
      for (int64_t u = 0; u < R * sets; ++u) kb.storeW(x[u], dst, {j, idx[u]});
      return SmallVector<Value>{};
    });
  }

  // The radix-8 sub-level of 8-residue blocks (forward: the last 3 stages;
  // inverse: the first 3) on 8 blocks at a time, in registers: each vector
  // holds one element of 8 blocks, with per-lane twiddles (NttTailTwiddles,
  // laid out for this). The evaluation domain of an 8-lane target keeps that
  // transposed order: within each group of 64 residues, natural element
  // 8 b + e sits at 8 e + b. So the forward transform transposes its 8 x 8
  // tiles once, on the way in, and the inverse once, on the way out; the
  // pointwise kernels between them do not care about the order.
  void transposedSubLevel(Value src, Value dst, Value tail, int64_t s, Value blkBase, int64_t blkCount, bool inverse,
                          bool last, int64_t logN, const std::array<Value, 4> &scale) {
    Value p = kb.splat(this->p, 8);
    // Two units of 8 blocks per iteration where there are, their butterflies
    // interleaved (measured on Zen 4: -4% forward NTT time, -1.5% inverse;
    // one unit's chains of double Shoup products leave the IFMA units idle).
    int64_t units = blkCount % 16 == 0 ? 2 : 1;
    kb.loop(blkCount / (8 * units), [&](Value v) {
      SmallVector<Value> x, bases;
      SmallVector<Twiddles> Ws;
      for (int64_t t = 0; t < units; ++t) {
        Value V = kb.add(kb.shr(blkBase, kb.cidx(3)), kb.add(kb.mul(v, kb.cidx(units)), kb.cidx(t)));
        Value base = kb.mul(V, kb.cidx(64));
        bases.push_back(base);
        Value gbase = kb.add(kb.cidx(abi::kTailHeaderWords), kb.mul(V, kb.cidx(abi::kTailWordsPerGroup)));
        SmallVector<Value> rows;
        for (int64_t u = 0; u < 8; ++u) {
          Value at = kb.add(base, kb.cidx(8 * u));
          rows.push_back(kb.loadW(src, {j, at}, 8));
          // This sub-level touches every element once, in L1: the same line of
          // the next prime's input row is fetched into L2 meanwhile, so that
          // its first level streams from cache, not DRAM.
          if (nextRow) kb.prefetch(nextInput, {nextRow, at}, /*locality=*/2);
        }
        llvm::append_range(x, inverse ? rows : kb.transpose8(rows));
        // NttTailTwiddles: the lane factors G (header), then per group the
        // one-group sub-stage's twiddles and the group factors H.
        Twiddles W(3);
        int64_t header = 0, factored = 0;
        for (int64_t d = 0; d < 3; ++d) {
          int64_t groups = inverse ? 4 >> d : 1 << d;
          if (groups == 1) {
            W[d].push_back({kb.loadW(tail, {j, gbase}, 8), kb.loadW(tail, {j, kb.add(gbase, kb.cidx(abi::kTailLanes))}, 8),
                            Value(), Value()});
            continue;
          }
          Value h = kb.add(gbase, kb.cidx(2 * abi::kTailLanes + 2 * factored++));
          Value hv = kb.splat(kb.load(tail, {j, h}), 8), hs = kb.splat(kb.load(tail, {j, kb.add(h, kb.cidx(1))}), 8);
          for (int64_t g = 0; g < groups; ++g, header += 2 * abi::kTailLanes)
            W[d].push_back({kb.loadW(tail, {j, kb.cidx(header)}, 8),
                            kb.loadW(tail, {j, kb.cidx(header + abi::kTailLanes)}, 8), hv, hs});
        }
        Ws.push_back(std::move(W));
      }
      if (inverse) {
        inverseButterflies(x, s, 3, logN, Ws, p, scale);
      } else {
        forwardButterflies(x, 3, Ws, p);
        if (last)
          for (Value &e : x) e = kb.reduce(e, p, 4, 1);
      }
      for (int64_t t = 0; t < units; ++t) {
        SmallVector<Value> rows(x.begin() + 8 * t, x.begin() + 8 * t + 8);
        if (inverse) rows = kb.transpose8(rows);
        for (int64_t u = 0; u < 8; ++u) kb.storeW(rows[u], dst, {j, kb.add(bases[t], kb.cidx(8 * u))});
      }
    });
  }

  // Whether the sub-level (s, k) on blkCount blocks takes the transposed path.
  bool transposed(int64_t stride, int64_t k, int64_t blkCount) const {
    return tail && stride == 1 && k == 3 && blkCount % 8 == 0;
  }
  Value tail;     ///< NttTailTwiddles of the direction (8 lanes only)
  Value nextInput, nextRow;  ///< the input row transformed next (prefetched), if any

  // Forward sub-level (s, k) on blocks [blkBase, blkBase + blkCount) of size
  // N/2^s: sub-transforms x_u = blk N/2^s + r + u N/2^(s+k); at sub-stage d
  // the pairs (u, u + 2^(k-1-d)) of group u >> (k-d) use
  // psi^bitrev(2^(s+d) + blk 2^d + group).
  void forwardSubLevel(Value src, Value dst, int64_t s, int64_t k, Value blkBase, int64_t blkCount, bool last) {
    int64_t R = int64_t(1) << k, stride = N >> (s + k), Wd = widthFor(stride);
    if (transposed(stride, k, blkCount))
      return transposedSubLevel(src, dst, tail, s, blkBase, blkCount, /*inverse=*/false, last, 0, {});
    Value p = kb.splat(this->p, Wd);
    kb.loop(blkCount, [&](Value sb) {
      Value blk = kb.add(blkBase, sb);
      Twiddles W = plan.twiddles(kb, j, s, k, blk, Wd);
      subTransforms(src, dst, kb.mul(blk, kb.cidx(N >> s)), stride, R, Wd, [&](SmallVectorImpl<Value> &x) {
        forwardButterflies(x, k, W, p);
        if (last)
          for (Value &v : x) v = kb.reduce(v, p, 4, 1);
      });
    });
  }

  // Forward level (s, k): each of its 2^s blocks through sub-levels of at
  // most radix stages. The shorter sub-level comes last (the first pass over
  // memory then does a full radix of work per load), except in the
  // transform's last level, where it comes first so that the smallest
  // strides form a full-radix sub-level (the transposed one on 8 lanes).
  void forwardLevel(Value src, Value dst, int64_t s, int64_t k, int64_t radix, bool last) {
    kb.loop(int64_t(1) << s, [&](Value blk) {
      Value from = src;
      for (auto [t, r] : subLevels(s, k, radix, /*inverse=*/false, last)) {
        int64_t count = int64_t(1) << (t - s);
        forwardSubLevel(from, dst, t, r, kb.mul(blk, kb.cidx(count)), count, last && t + r == s + k);
        from = dst;
      }
    });
  }

  // Inverse sub-level (s, k), stages s..s+k-1 of stride 2^s.., on blocks
  // [blkBase, blkBase + blkCount) of size 2^(s+k): sub-transforms
  // x_u = blk 2^(s+k) + r + u 2^s; at sub-stage d the pairs (u, u + 2^d) of
  // group blk 2^(k-d-1) + (u >> (d+1)) use psi^-bitrev(N/2^(s+d+1) + group).
  // The transform's very last stage multiplies by the scaling constants.
  void inverseSubLevel(Value src, Value dst, int64_t s, int64_t k, Value blkBase, int64_t blkCount, int64_t logN,
                       std::array<Value, 4> scaleS) {
    int64_t R = int64_t(1) << k, stride = int64_t(1) << s, Wd = widthFor(stride);
    // (The transform's last stage is never in the first three of a transform of 2^6 or more.)
    if (transposed(stride, k, blkCount) && logN >= 6)
      return transposedSubLevel(src, dst, tail, s, blkBase, blkCount, /*inverse=*/true, false, logN, scaleS);
    Value p = kb.splat(this->p, Wd);
    std::array<Value, 4> scale;
    for (int c = 0; c < 4; ++c) scale[c] = kb.splat(scaleS[c], Wd);
    kb.loop(blkCount, [&](Value sb) {
      Value blk = kb.add(blkBase, sb);
      Twiddles W = plan.twiddles(kb, j, s, k, blk, Wd);
      subTransforms(src, dst, kb.mul(blk, kb.cidx(int64_t(1) << (s + k))), stride, R, Wd,
                    [&](SmallVectorImpl<Value> &x) {
        inverseButterflies(x, s, k, logN, W, p, scale);
      });
    });
  }

  // Inverse level (s, k): each of its N/2^(s+k) blocks through sub-levels.
  void inverseLevel(Value src, Value dst, int64_t s, int64_t k, int64_t radix, int64_t logN,
                    std::array<Value, 4> scale) {
    kb.loop(N >> (s + k), [&](Value blk) {
      Value from = src;
      for (auto [t, r] : subLevels(s, k, radix, /*inverse=*/true, false)) {
        int64_t count = int64_t(1) << (s + k - t - r);
        inverseSubLevel(from, dst, t, r, kb.mul(blk, kb.cidx(count)), count, logN, scale);
        from = dst;
      }
    });
  }
};

} // namespace

// One transform's rows for prime j (the body of the parallel prime loop):
// its tables, levels and scaling constants. `next` is the input row the
// kernel transforms after this one, prefetched during this one.
static void emitTransformRow(KernelBuilder &kb, Operation *op, Value in, Value out, Value j,
                             std::pair<Value, Value> next) {
  TransformPlan t = planTransform(kb, op);
  bool inverse = t.inverse;
  int64_t logN = t.logN, skip = t.skip;
  SmallVector<int64_t> levels = t.levels;
  // The transposed radix-8 sub-level of the 8-lane targets needs its twiddle layout.
  Value tail = nttTransposedOrder(*kb.options.target, unsigned(logN))
                   ? kb.table(abi::TableKind::NttTailTwiddles, t.basis, inverse ? 1 : 0, logN)
                   : Value();
  NttEmitter e{{kb, t.scaledRange}, t.N, t, j, t.prime(kb, j), tail, next.first, next.second};
  std::array<Value, 4> scale = t.scale(kb, j);
  // With the transposed tail, the evaluation order depends on it: the
  // forward transform's last level (the inverse's first) always keeps at
  // least six stages, so that its radix-8 tail covers 8 blocks of 8.
  if (tail && skip == 0) {
    if (inverse) std::reverse(levels.begin(), levels.end());
    while (levels.size() > 1 && levels.back() < 6) {
      int64_t need = std::min<int64_t>(6 - levels.back(), levels[levels.size() - 2]);
      levels.back() += need;
      if ((levels[levels.size() - 2] -= need) == 0) levels.erase(levels.end() - 2);
    }
    if (inverse) std::reverse(levels.begin(), levels.end());
  }
  int64_t s = inverse ? skip : 0, radix = kb.options.target->nttRadixLog;
  for (auto [l, k] : llvm::enumerate(levels)) {
    Value src = l == 0 ? in : out;
    if (inverse)
      e.inverseLevel(src, out, s, k, radix, logN, scale);
    else
      e.forwardLevel(src, out, s, k, radix, l + 1 == levels.size());
    s += k;
  }
}

void emitTransformBatchRow(KernelBuilder &kb, ArrayRef<Operation *> ops, ArrayRef<Value> ins, ArrayRef<Value> outs,
                           Value j, std::pair<Value, Value> after) {
  for (size_t b = 0; b < ops.size(); ++b)
    emitTransformRow(kb, ops[b], ins[b], outs[b], j, b + 1 < ops.size() ? std::pair{ins[b + 1], j} : after);
}

// The result buffer of a transform of `in`: in place when the input is a
// kernel result that dies here (every sub-transform stores exactly the
// elements it loaded, and the result then needs no second buffer, nor its
// read-for-ownership traffic).
static Value resultBuffer(KernelBuilder &kb, Value input, Value in, Type resultT) {
  bool inPlace = diesHere(input) && in.getType() == kb.memrefOf(resultT);
  return inPlace ? in : kb.alloc(kb.memrefOf(resultT));
}

// A batch of transforms of one type (one transform, or an fhe.fused
// transform kernel): one parallel loop over primes, each prime's rows of
// every transform in turn while its twiddles are in cache.
static void emitTransforms(KernelBuilder &kb, ArrayRef<Operation *> ops, ArrayRef<Value> ins, ArrayRef<Value> outs) {
  if (usesGpuLaunches(kb.options)) return emitTransformsGpu(kb, ops, ins, outs);
  Value m = kb.primeCount(cast<fhe::RnsType>(ops.front()->getResult(0).getType()).getBasis());
  kb.phaseBegin(phaseOf(ops.front()));
  kb.parallel(ValueRange{m}, [&](ValueRange iv) {
    Value j = iv[0];
    // After the batch: the next prime's row of the first transform.
    Value nextPrime = arith::MinUIOp::create(kb.b, kb.loc, kb.add(j, kb.cidx(1)), kb.sub(m, kb.cidx(1)));
    emitTransformBatchRow(kb, ops, ins, outs, j, {ins[0], nextPrime});
  });
  kb.phaseEnd(phaseOf(ops.front()));
}

namespace {

template <typename OpTy> struct NttLowering : KernelPattern<OpTy> {
  using KernelPattern<OpTy>::KernelPattern;
  using KernelPattern<OpTy>::options;

  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (failed(checkGpuLevels(op, options))) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    Value out = resultBuffer(kb, op.getInput(), adaptor.getInput(), op.getResult().getType());
    emitTransforms(kb, {op.getOperation()}, {adaptor.getInput()}, {out});
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct FusedTransformLowering : KernelPattern<fhe::FusedOp> {
  using KernelPattern::KernelPattern;

  LogicalResult matchAndRewrite(fhe::FusedOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    if (op.getSpace() != fhe::Space::transform) return failure();
    for (Operation &inner : op.getBody()->without_terminator())
      if (failed(checkGpuLevels(&inner, options))) return failure();
    KernelBuilder kb(rewriter, op.getLoc(), options);
    SmallVector<Operation *> ops;
    SmallVector<Value> ins, outs;
    llvm::DenseMap<Value, Value> bufferOf;  // yielded value -> its buffer
    for (Operation &inner : op.getBody()->without_terminator()) {
      auto arg = cast<BlockArgument>(inner.getOperand(0));
      Value input = op.getInputs()[arg.getArgNumber()], in = adaptor.getInputs()[arg.getArgNumber()];
      ops.push_back(&inner);
      ins.push_back(in);
      // In place only if no other transform of the batch reads the same operand.
      outs.push_back(arg.hasOneUse() ? resultBuffer(kb, input, in, inner.getResult(0).getType())
                                     : kb.alloc(kb.memrefOf(inner.getResult(0).getType())));
      bufferOf[inner.getResult(0)] = outs.back();
    }
    emitTransforms(kb, ops, ins, outs);
    SmallVector<Value> repl;
    for (Value y : op.getYield().getValues()) repl.push_back(bufferOf.at(y));
    rewriter.replaceOp(op, repl);
    return success();
  }
};

} // namespace

void populateNttPatterns(const TypeConverter &tc, RewritePatternSet &patterns, const LoweringOptions &o) {
  patterns.add<NttLowering<fhe::NttOp>, NttLowering<fhe::InttOp>, FusedTransformLowering>(tc, patterns.getContext(), o);
}

} // namespace fhec
